// Validates WGSL files with Tint through Dawn's Node bindings (npm `webgpu`)
// on Dawn's null backend: each file must compile with no error or warning and
// give a compute pipeline for its entry point. f16 modules get a device with
// 'shader-f16'. The device has WebGPU's default limits, but for those given
// as --limit NAME=VALUE.
// Dawn's null adapter offers no more than the defaults: --gl validates on
// Dawn's OpenGL ES backend instead (llvmpipe: EGL_PLATFORM=surfaceless,
// compatibility mode), whose adapter has more.
// Usage: node wgsl-validate.mjs [--gl] [--limit maxComputeWorkgroupStorageSize=32768]... FILE.wgsl...
// Exit status 0 when every file passes; prints "N passed, M failed".
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { create, globals } = require(process.env.TILEC_WEBGPU_MODULE || 'webgpu');
Object.assign(globalThis, globals);

const requiredLimits = {};
const files = [];
const args = process.argv.slice(2);
let gl = false;
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--gl') {
    gl = true;
  } else if (args[i] === '--limit') {
    const [name, value] = args[++i].split('=');
    requiredLimits[name] = Number(value);
  } else {
    files.push(args[i]);
  }
}
if (gl) process.env.EGL_PLATFORM = 'surfaceless';
const gpu = create([gl ? 'backend=opengles' : 'backend=null']);
const adapter = await gpu.requestAdapter(gl ? { featureLevel: 'compatibility' } : {});
if (!adapter) {
  console.error(`wgsl-validate: no adapter on the ${gl ? 'OpenGL ES' : 'null'} backend`);
  process.exit(2);
}
const features = adapter.features.has('shader-f16') ? ['shader-f16'] : [];
// Compatibility mode's defaults are below core WebGPU's: ask for core's.
if (gl) {
  const core = { maxComputeWorkgroupSizeX: 256, maxComputeWorkgroupSizeY: 256, maxComputeWorkgroupSizeZ: 64,
    maxComputeInvocationsPerWorkgroup: 256, maxStorageBuffersPerShaderStage: 8, maxStorageBuffersInComputeStage: 8 };
  for (const [name, value] of Object.entries(core))
    if (adapter.limits[name] !== undefined && !(name in requiredLimits))
      requiredLimits[name] = Math.min(value, adapter.limits[name]);
}
const device = await adapter.requestDevice({ requiredFeatures: features, requiredLimits });

let passed = 0, failed = 0;
for (const file of files) {
  const code = readFileSync(file, 'utf8');
  const entry = /@compute[^\n]*\n\s*fn\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(code);
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const problems = info.messages.filter((m) => m.type === 'error' || m.type === 'warning')
    .map((m) => `${file}:${m.lineNum}:${m.linePos}: ${m.type}: ${m.message}`);
  if (entry && problems.length === 0)
    device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: entry[1] } });
  const err = await device.popErrorScope();
  if (!entry) problems.push(`${file}: no @compute entry point`);
  if (err && problems.length === 0) problems.push(`${file}: ${err.message}`);
  if (problems.length) {
    failed++;
    console.log(`FAIL ${file}\n  ${problems.join('\n  ')}`);
  } else {
    passed++;
    console.log(`ok ${file}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
