//===- LayoutSVG.cpp - Pictures of the layouts a kernel's buffers take ----===//
//
// One SVG document, one panel per buffer, stacked:
// - fragment: the first 16 x 16 elements as cells naming the thread (T) and
//   register (r) that hold each, colored by lane; beside it the whole
//   buffer colored by warp (runs of one warp merged into one rectangle);
// - shared: the first 16 rows x 16 chunks of 16 bytes, each cell the bank
//   group (four 4-byte banks of the 32) its chunk lands in and its byte
//   offset, colored by bank group, with the worst conflict of 8 rows
//   reading one column.
// Buffers of rank > 2 are drawn with their leading dimensions as rows.
//
//===----------------------------------------------------------------------===//
#include "tilec/Driver/LayoutSVG.h"

#include "tilec/Dialect/Tile/IR/SharedSwizzle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

using namespace tilec;

namespace {

constexpr int64_t kDetail = 16;         // rows and columns of the detail grid
constexpr int kMargin = 16;             // left margin of every panel
constexpr int kCellW = 40, kCellH = 28; // fragment detail cell
constexpr int kChunkW = 58;             // shared detail cell (height kCellH)
constexpr int kOverview = 384;          // most pixels of the overview's long side
constexpr const char *kFont = "DejaVu Sans, Helvetica, Arial, sans-serif";
constexpr const char *kMono = "DejaVu Sans Mono, Menlo, Consolas, monospace";

/// Distinct light colors for warps and bank groups (ColorBrewer Set3).
constexpr const char *kPalette[] = {"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
                                    "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
constexpr int kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

/// The buffer as rows x columns: its leading dimensions flattened.
struct View {
  int64_t rows = 1, cols = 1;
};

View viewOf(llvm::ArrayRef<int64_t> shape) {
  View v;
  if (shape.empty())
    return v;
  v.cols = shape.back();
  for (int64_t d : shape.drop_back())
    v.rows *= d;
  return v;
}

std::string escape(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// A light color per lane of a warp (hue around the circle), darker for odd warps.
std::string laneColor(int64_t tid, int64_t warpSize) {
  double h = double(tid % warpSize) / double(warpSize) * 360.0;
  double s = 0.65, l = (tid / warpSize) % 2 ? 0.70 : 0.82;
  double c = (1 - std::fabs(2 * l - 1)) * s, x = c * (1 - std::fabs(std::fmod(h / 60.0, 2) - 1)), m = l - c / 2;
  double r = 0, g = 0, b = 0;
  int sector = int(h / 60.0) % 6;
  switch (sector) {
  case 0:
    r = c, g = x;
    break;
  case 1:
    r = x, g = c;
    break;
  case 2:
    g = c, b = x;
    break;
  case 3:
    g = x, b = c;
    break;
  case 4:
    r = x, b = c;
    break;
  default:
    r = c, b = x;
    break;
  }
  auto hex = [](double v) {
    std::string h = llvm::utohexstr(unsigned(std::lround(v * 255)), /*LowerCase=*/true);
    return h.size() < 2 ? "0" + h : h;
  };
  return "#" + hex(r + m) + hex(g + m) + hex(b + m);
}

std::string joinInts(llvm::ArrayRef<int64_t> v, llvm::StringRef sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? sep.str() : "") + std::to_string(v[i]);
  return s;
}

/// `thread(4, 8, 1) + reg(2, 2, 8)` for each dimension, as the attribute spells fields.
std::string fieldsText(const tile::FragmentLayout &l, unsigned d) {
  std::string s = "dim " + std::to_string(d) + " (" + std::to_string(l.shape[d]) + "):";
  if (l.dims[d].empty())
    return s + " 0";
  for (size_t i = 0; i < l.dims[d].size(); ++i) {
    const tile::LayoutField &f = l.dims[d][i];
    s += (i ? " + " : " ") + std::string(f.onThread ? "thread" : "reg") + "(" + std::to_string(f.stride) + ", " +
         std::to_string(f.count) + ", " + std::to_string(f.scale) + ")";
  }
  return s;
}

/// Which thread (the lowest of those holding it) and register hold each
/// element (row-major), and how many threads hold it.
struct Owners {
  std::vector<int64_t> thread, reg, holders;
};

Owners ownersOf(const tile::FragmentLayout &l) {
  int64_t n = 1;
  for (int64_t d : l.shape)
    n *= d;
  Owners o;
  o.thread.assign(n, -1);
  o.reg.assign(n, -1);
  o.holders.assign(n, 0);
  unsigned rank = l.shape.size();
  std::vector<std::vector<int64_t>> threadPart(rank, std::vector<int64_t>(l.numThreads));
  for (unsigned d = 0; d < rank; ++d)
    for (int64_t t = 0; t < l.numThreads; ++t)
      threadPart[d][t] = l.threadIndex(d, t);
  for (int64_t r = 0; r < l.numRegs; ++r) {
    llvm::SmallVector<int64_t> regPart = l.regIndex(r);
    for (int64_t t = 0; t < l.numThreads; ++t) {
      int64_t lin = 0;
      bool inside = true;
      for (unsigned d = 0; d < rank && inside; ++d) {
        int64_t idx = regPart[d] + threadPart[d][t];
        inside = idx >= 0 && idx < l.shape[d];
        lin = lin * l.shape[d] + idx;
      }
      if (!inside)
        continue;
      ++o.holders[lin];
      if (o.thread[lin] < 0 || t < o.thread[lin]) {
        o.thread[lin] = t;
        o.reg[lin] = r;
      }
    }
  }
  return o;
}

/// The panels, written one below the other; the document is wrapped around
/// them once their size is known.
class Canvas {
public:
  std::string body;
  int y = 0;     ///< top of the next panel
  int width = 0; ///< widest panel so far

  void text(int x, int ty, llvm::StringRef s, int size, llvm::StringRef extra = "") {
    body += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(ty) + "\" font-size=\"" +
            std::to_string(size) + "\"" + (extra.empty() ? "" : " " + extra.str()) + ">" + escape(s) + "</text>\n";
  }
  void rect(int x, int ry, int w, int h, llvm::StringRef fill, llvm::StringRef extra = "") {
    body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(ry) + "\" width=\"" + std::to_string(w) +
            "\" height=\"" + std::to_string(h) + "\" fill=\"" + fill.str() + "\"" +
            (extra.empty() ? "" : " " + extra.str()) + "/>\n";
  }
  void grow(int w) { width = std::max(width, w); }
};

/// Title lines shared by both kinds of panel; returns the y below them.
int panelHeader(Canvas &c, const KernelLayouts &k, const BufferLayout &b, llvm::ArrayRef<std::string> lines) {
  int ty = c.y + 20;
  std::string scope = b.kind == BufferLayout::Kind::Fragment ? "fragment" : "shared";
  std::string title = k.kernel + " \u00b7 " + b.name + (b.where.empty() ? "" : " (" + b.where + ")") + " \u2014 " +
                      scope + " " + joinInts(b.shape, "\u00d7") + " " + b.elementType;
  c.body += "<g id=\"" + escape(k.kernel + "." + b.name + "." + k.target) + "\">\n";
  c.text(kMargin, ty, title, 15, "font-weight=\"bold\"");
  ty += 18;
  c.text(kMargin, ty, k.target + ", " + k.path + ": " + b.origin, 12);
  for (const std::string &line : lines) {
    ty += 16;
    c.text(kMargin, ty, line, 11, line.rfind("dim ", 0) == 0 ? ("font-family=\"" + std::string(kMono) + "\"") : "");
  }
  return ty + 14;
}

/// The overview of a fragment: every element colored by its warp, runs of
/// one warp in a row merged, rows equal to the one above merged.
int fragmentOverview(Canvas &c, const KernelLayouts &k, const BufferLayout &b, const Owners &o, int x, int top,
                     View v) {
  int cell = int(std::clamp<int64_t>(kOverview / std::max(v.rows, v.cols), 1, 12));
  int cellH = v.rows < 4 ? std::max(cell, 12) : cell; // a vector stays visible
  c.text(x, top, "whole buffer, colored by warp", 11, "fill=\"#444\"");
  int gy = top + 8;
  auto warpOf = [&](int64_t e) { return o.thread[e] < 0 ? -1 : o.thread[e] / k.warpSize; };
  // Runs of row r as (start, end, warp).
  auto runs = [&](int64_t r) {
    std::vector<std::array<int64_t, 3>> out;
    for (int64_t col = 0; col < v.cols; ++col) {
      int64_t w = warpOf(r * v.cols + col);
      if (!out.empty() && out.back()[2] == w)
        out.back()[1] = col + 1;
      else
        out.push_back({col, col + 1, w});
    }
    return out;
  };
  for (int64_t r = 0; r < v.rows;) {
    auto rowRuns = runs(r);
    int64_t end = r + 1;
    while (end < v.rows && runs(end) == rowRuns)
      ++end;
    for (auto &run : rowRuns)
      c.rect(x + int(run[0]) * cell, gy + int(r) * cellH, int(run[1] - run[0]) * cell, int(end - r) * cellH,
             run[2] < 0 ? "#ffffff" : kPalette[run[2] % kPaletteSize]);
    r = end;
  }
  int w = int(v.cols) * cell, h = int(v.rows) * cellH;
  c.rect(x, gy, w, h, "none", "stroke=\"#333\" stroke-width=\"1\"");
  // Where the detail grid is.
  c.rect(x, gy, int(std::min(v.cols, kDetail)) * cell, int(std::min(v.rows, kDetail)) * cellH, "none",
         "stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"3,2\"");
  // Legend: one swatch per warp (the first 16).
  int64_t warps = (k.threads + k.warpSize - 1) / k.warpSize;
  int ly = gy + h + 16;
  for (int64_t wi = 0; wi < std::min<int64_t>(warps, 16); ++wi) {
    int lx = x + int(wi % 4) * 96, row = int(wi / 4);
    c.rect(lx, ly + row * 16 - 10, 12, 12, kPalette[wi % kPaletteSize], "stroke=\"#333\" stroke-width=\"0.5\"");
    c.text(lx + 16, ly + row * 16, "warp " + std::to_string(wi), 10);
  }
  int legendRows = int((std::min<int64_t>(warps, 16) + 3) / 4);
  c.grow(x + std::max(w, 4 * 96) + kMargin);
  return ly + legendRows * 16;
}

void fragmentPanel(Canvas &c, const KernelLayouts &k, const BufferLayout &b) {
  const tile::FragmentLayout &l = b.fragment;
  Owners o = ownersOf(l);
  View v = viewOf(b.shape);
  int64_t maxHolders = *std::max_element(o.holders.begin(), o.holders.end());
  std::vector<std::string> lines;
  std::string info = std::to_string(l.numThreads) + " threads (" +
                     std::to_string((l.numThreads + k.warpSize - 1) / k.warpSize) + " warps of " +
                     std::to_string(k.warpSize) + "), " + std::to_string(l.numRegs) + " registers per thread";
  if (maxHolders > 1)
    info += "; each element held by " + std::to_string(maxHolders) + " threads (the lowest is shown)";
  if (std::count(o.holders.begin(), o.holders.end(), 0))
    info += "; some elements held by no thread (blank)";
  lines.push_back(info);
  lines.push_back("index[d] = sum of ((x / stride) % count) * scale, x the thread id (thread) or register (reg):");
  for (unsigned d = 0; d < l.dims.size(); ++d)
    lines.push_back(fieldsText(l, d));
  int top = panelHeader(c, k, b, lines);
  int64_t dr = std::min(v.rows, kDetail), dc = std::min(v.cols, kDetail);
  c.text(kMargin, top, "elements [0:" + std::to_string(dr) + ", 0:" + std::to_string(dc) + "]: T thread, r register",
         11, "fill=\"#444\"");
  int gx = kMargin + 28, gy = top + 22;
  for (int64_t col = 0; col < dc; ++col)
    c.text(gx + int(col) * kCellW + kCellW / 2, gy - 4, std::to_string(col), 9, "text-anchor=\"middle\" fill=\"#666\"");
  for (int64_t r = 0; r < dr; ++r) {
    int cy = gy + int(r) * kCellH;
    c.text(gx - 4, cy + kCellH / 2 + 3, std::to_string(r), 9, "text-anchor=\"end\" fill=\"#666\"");
    for (int64_t col = 0; col < dc; ++col) {
      int64_t e = r * v.cols + col;
      int cx = gx + int(col) * kCellW;
      bool held = o.thread[e] >= 0;
      c.rect(cx, cy, kCellW, kCellH, held ? laneColor(o.thread[e], k.warpSize) : "#ffffff",
             "stroke=\"#fff\" stroke-width=\"1\"");
      if (!held)
        continue;
      c.text(cx + kCellW / 2, cy + 12, "T" + std::to_string(o.thread[e]), 11,
             "text-anchor=\"middle\" font-weight=\"bold\"");
      c.text(cx + kCellW / 2, cy + 24, "r" + std::to_string(o.reg[e]), 9, "text-anchor=\"middle\" fill=\"#333\"");
    }
  }
  int bottom = gy + int(dr) * kCellH;
  int right = gx + int(dc) * kCellW;
  c.grow(right + kMargin);
  if (v.rows > kDetail || v.cols > kDetail)
    bottom = std::max(bottom, fragmentOverview(c, k, b, o, right + 32, top, v));
  c.body += "</g>\n";
  c.y = bottom + 24;
}

/// Byte offset, within one stage, of element (row, col) of a shared buffer
/// (the thread-level lowering's sharedIndex).
int64_t sharedByte(const BufferLayout &b, View v, int64_t row, int64_t col) {
  int64_t elemBytes = std::max<int64_t>(1, b.elementBits / 8);
  if (!b.swizzleBytes || b.shape.size() < 2)
    return (row * v.cols + col) * elemBytes;
  int64_t chunkElems = tile::kSwizzleChunkBytes / elemBytes;
  int64_t inner = v.cols, base = 0;
  if (b.boxCols) {
    base = col / b.boxCols * v.rows * b.boxCols;
    col %= b.boxCols;
    inner = b.boxCols;
  }
  int64_t chunk = col / chunkElems ^ tile::swizzleXor(row, b.swizzleBytes);
  return (base + row * inner + chunk * chunkElems + col % chunkElems) * elemBytes;
}

void sharedPanel(Canvas &c, const KernelLayouts &k, const BufferLayout &b) {
  View v = viewOf(b.shape);
  int64_t elemBytes = std::max<int64_t>(1, b.elementBits / 8);
  int64_t chunkElems = std::max<int64_t>(1, tile::kSwizzleChunkBytes / elemBytes);
  int64_t chunks = (v.cols + chunkElems - 1) / chunkElems;
  std::vector<std::string> lines;
  std::string sw = b.swizzleBytes ? std::to_string(b.swizzleBytes) +
                                        "-byte swizzle: 16-byte chunk c of row r stored at chunk c ^ " +
                                        (b.swizzleBytes == 128  ? "(r % 8)"
                                         : b.swizzleBytes == 64 ? "((r / 2) % 4)"
                                                                : "((r / 4) % 2)")
                                  : "no swizzle: rows stored one after the other";
  if (b.boxCols)
    sw += "; rows stored as boxes of " + std::to_string(b.boxCols) + " columns, box after box";
  lines.push_back(sw);
  int64_t stageBytes = elemBytes;
  for (int64_t d : b.shape)
    stageBytes *= d;
  std::string place =
      std::to_string(b.stages) + (b.stages > 1 ? " stages" : " stage") + " of " + std::to_string(stageBytes) + " bytes";
  if (b.offset >= 0)
    place += " from byte " + std::to_string(b.offset) + " of the shared window";
  int64_t ways = sharedColumnReadWays(b);
  place += "; 8 rows reading one 16-byte column: " +
           (ways <= 1 ? std::string("conflict-free") : std::to_string(ways) + "-way bank conflict");
  lines.push_back(place);
  int top = panelHeader(c, k, b, lines);
  int64_t dr = std::min(v.rows, kDetail), dc = std::min(chunks, kDetail);
  c.text(kMargin, top,
         "rows [0:" + std::to_string(dr) + "] x 16-byte chunks [0:" + std::to_string(dc) + "] (" +
             std::to_string(chunkElems) + " elements each): banks (4 bytes each, 32) and byte offset in the stage",
         11, "fill=\"#444\"");
  int gx = kMargin + 28, gy = top + 22;
  for (int64_t col = 0; col < dc; ++col)
    c.text(gx + int(col) * kChunkW + kChunkW / 2, gy - 4,
           std::to_string(col * chunkElems) + "\u2013" + std::to_string(col * chunkElems + chunkElems - 1), 9,
           "text-anchor=\"middle\" fill=\"#666\"");
  for (int64_t r = 0; r < dr; ++r) {
    int cy = gy + int(r) * kCellH;
    c.text(gx - 4, cy + kCellH / 2 + 3, std::to_string(r), 9, "text-anchor=\"end\" fill=\"#666\"");
    for (int64_t col = 0; col < dc; ++col) {
      int64_t byte = sharedByte(b, v, r, col * chunkElems);
      int64_t group = byte / 16 % 8;
      int cx = gx + int(col) * kChunkW;
      c.rect(cx, cy, kChunkW, kCellH, kPalette[group], "stroke=\"#fff\" stroke-width=\"1\"");
      c.text(cx + kChunkW / 2, cy + 12, "b" + std::to_string(4 * group) + "\u2013" + std::to_string(4 * group + 3), 10,
             "text-anchor=\"middle\" font-weight=\"bold\"");
      c.text(cx + kChunkW / 2, cy + 24, "@" + std::to_string(byte), 9, "text-anchor=\"middle\" fill=\"#333\"");
    }
  }
  int bottom = gy + int(dr) * kCellH;
  if (v.rows > dr || chunks > dc) {
    bottom += 14;
    c.text(gx, bottom,
           "(" + std::to_string(v.rows) + " rows x " + std::to_string(chunks) +
               " chunks in all; the swizzle repeats every 8 rows)",
           10, "fill=\"#666\"");
  }
  c.grow(std::max<int>(gx + int(dc) * kChunkW, 720) + kMargin);
  c.body += "</g>\n";
  c.y = bottom + 24;
}

} // namespace

int64_t tilec::sharedColumnReadWays(const BufferLayout &b) {
  View v = viewOf(b.shape);
  int64_t elemBytes = std::max<int64_t>(1, b.elementBits / 8);
  int64_t chunkElems = std::max<int64_t>(1, tile::kSwizzleChunkBytes / elemBytes);
  if (v.rows < 2 || v.cols < chunkElems)
    return 1;
  int64_t worst = 1;
  for (int64_t r0 = 0; r0 < v.rows; r0 += 8)
    for (int64_t col = 0; col + chunkElems <= v.cols; col += chunkElems) {
      int64_t count[8] = {0};
      for (int64_t r = r0; r < std::min(r0 + 8, v.rows); ++r)
        worst = std::max(worst, ++count[sharedByte(b, v, r, col) / 16 % 8]);
    }
  return worst;
}

void tilec::renderLayoutSVG(llvm::ArrayRef<KernelLayouts> kernels, llvm::StringRef source, llvm::raw_ostream &os) {
  Canvas c;
  c.y = 40;
  c.grow(720);
  c.text(kMargin, 24, "tilec --emit=layout: " + source.str(), 17, "font-weight=\"bold\"");
  bool any = false;
  for (const KernelLayouts &k : kernels)
    for (const BufferLayout &b : k.buffers) {
      any = true;
      if (b.kind == BufferLayout::Kind::Fragment)
        fragmentPanel(c, k, b);
      else
        sharedPanel(c, k, b);
    }
  if (!any) {
    c.text(kMargin, c.y + 16, "no fragment or shared buffer in these kernels", 12);
    c.y += 40;
  }
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << c.width << "\" height=\"" << c.y << "\" viewBox=\"0 0 "
     << c.width << " " << c.y << "\" font-family=\"" << kFont << "\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
     << c.body << "</svg>\n";
}
