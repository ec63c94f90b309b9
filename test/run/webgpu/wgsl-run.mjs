// Runs one WGSL compute kernel through WebGPU on the CPU and writes back the
// buffers it may write. Under Node.js it uses Dawn's Node bindings (npm
// `webgpu`) on Dawn's OpenGL ES backend (Mesa llvmpipe through EGL,
// EGL_PLATFORM=surfaceless; no f16 there); under Deno, Deno's WebGPU (wgpu on
// Vulkan: lavapipe), which has 'shader-f16'.
// Usage: node wgsl-run.mjs JOB.json   |   deno run -A wgsl-run.mjs JOB.json
// JOB.json (written by test/run/vulkan/compare.cpp):
//   {"wgsl": path, "grid": [x, y, z], "uniform": {"binding": b, "path": p} | null,
//    "buffers": [{"binding": b, "path": p, "readOnly": bool}, ...]}
// Each buffer file holds the tensor's bytes; written ones are overwritten.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const isDeno = typeof globalThis.Deno !== 'undefined';
const jobPath = isDeno ? Deno.args[0] : process.argv[2];
const exit = (code) => (isDeno ? Deno.exit(code) : process.exit(code));
const fail = (message) => {
  console.error(`wgsl-run: ${message}`);
  exit(1);
};

let gpu;
if (isDeno) {
  gpu = navigator.gpu;
} else {
  const require = createRequire(import.meta.url);
  const { create, globals } = require(process.env.TILEC_WEBGPU_MODULE || 'webgpu');
  Object.assign(globalThis, globals);
  gpu = create(['backend=opengles']);
}
const adapter = isDeno ? await gpu.requestAdapter() : await gpu.requestAdapter({ featureLevel: 'compatibility' });
if (!adapter) fail('no WebGPU adapter');

const job = JSON.parse(readFileSync(jobPath, 'utf8'));
const code = readFileSync(job.wgsl, 'utf8');
const entry = /@compute[^\n]*\n\s*fn\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(code);
if (!entry) fail(`${job.wgsl}: no @compute entry point`);
const needsF16 = /^enable f16;/m.test(code);
if (needsF16 && !adapter.features.has('shader-f16'))
  fail(`${job.wgsl} enables f16 and this adapter has no 'shader-f16'`);
// The adapter's own limits for what the kernels may exceed the defaults in.
const limitNames = ['maxComputeWorkgroupStorageSize', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY', 'maxComputeWorkgroupSizeZ', 'maxStorageBuffersPerShaderStage',
  'maxStorageBuffersInComputeStage', 'maxStorageBufferBindingSize'];
const requiredLimits = {};
for (const name of limitNames)
  if (adapter.limits[name] !== undefined) requiredLimits[name] = adapter.limits[name];
const device = await adapter.requestDevice({ requiredFeatures: needsF16 ? ['shader-f16'] : [], requiredLimits });
device.pushErrorScope('validation');

const module = device.createShaderModule({ code });
const info = await module.getCompilationInfo();
for (const m of info.messages)
  if (m.type === 'error') fail(`${job.wgsl}:${m.lineNum}:${m.linePos}: ${m.message}`);
const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: entry[1] } });

const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
const entries = [];
const readBacks = [];
const encoder = device.createCommandEncoder();
for (const b of job.buffers) {
  const bytes = readFileSync(b.path);
  const size = Math.max(4, Math.ceil(bytes.length / 4) * 4);
  const buffer = device.createBuffer({ size, usage });
  const padded = new Uint8Array(size);
  padded.set(bytes);
  device.queue.writeBuffer(buffer, 0, padded);
  entries.push({ binding: b.binding, resource: { buffer } });
  if (!b.readOnly) {
    const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    readBacks.push({ b, buffer, staging, length: bytes.length, size });
  }
}
if (job.uniform) {
  const bytes = readFileSync(job.uniform.path);
  const buffer = device.createBuffer({ size: bytes.length, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, new Uint8Array(bytes));
  entries.push({ binding: job.uniform.binding, resource: { buffer } });
}
// 'auto' layouts hold only the bindings the shader uses.
const used = new Set([...code.matchAll(/@binding\((\d+)\)/g)].map((m) => Number(m[1])));
const bindGroup = device.createBindGroup({
  layout: pipeline.getBindGroupLayout(0),
  entries: entries.filter((e) => used.has(e.binding)),
});
const pass = encoder.beginComputePass();
pass.setPipeline(pipeline);
if (entries.some((e) => used.has(e.binding))) pass.setBindGroup(0, bindGroup);
const start = performance.now();
pass.dispatchWorkgroups(job.grid[0], job.grid[1], job.grid[2]);
pass.end();
for (const rb of readBacks) encoder.copyBufferToBuffer(rb.buffer, 0, rb.staging, 0, rb.size);
device.queue.submit([encoder.finish()]);
const error = await device.popErrorScope();
if (error) fail(error.message);
for (const rb of readBacks) {
  await rb.staging.mapAsync(GPUMapMode.READ);
  const data = new Uint8Array(rb.staging.getMappedRange()).slice(0, rb.length);
  writeFileSync(rb.b.path, data);
  rb.staging.unmap();
}
const ms = performance.now() - start;
const desc = adapter.info ? `${adapter.info.vendor} ${adapter.info.architecture} ${adapter.info.description}`.trim() : '';
console.log(`webgpu run on ${isDeno ? 'deno' : 'dawn'} (${desc}): grid ${job.grid.join('x')}, ${ms.toFixed(1)} ms`);
exit(0);
