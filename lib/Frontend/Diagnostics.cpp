//===- Diagnostics.cpp - Registry lookup, locations and range printing ----===//
//
// Maps registered diagnostic kinds to their text, builds FileLineColRange
// locations from source ranges and prints diagnostics with ranged carets.
//
//===----------------------------------------------------------------------===//
#include "tilec/Frontend/Diagnostics.h"

#include "llvm/Support/Unicode.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace tilec;
using mlir::DiagnosticSeverity;

namespace {
struct DiagInfo {
  DiagnosticSeverity severity;
  const char *format;
  const char *name;
};
constexpr DiagnosticSeverity Error = DiagnosticSeverity::Error;
constexpr DiagnosticSeverity Warning = DiagnosticSeverity::Warning;
constexpr DiagnosticSeverity Note = DiagnosticSeverity::Note;
constexpr DiagnosticSeverity Remark = DiagnosticSeverity::Remark;

const DiagInfo diagTable[] = {
#define DIAG(ID, SEVERITY, FORMAT) {SEVERITY, FORMAT, #ID},
#include "tilec/Frontend/Diagnostics.def"
};
} // namespace

DiagnosticSeverity tilec::getDiagSeverity(DiagID id) { return diagTable[unsigned(id)].severity; }
const char *tilec::getDiagFormat(DiagID id) { return diagTable[unsigned(id)].format; }
const char *tilec::getDiagName(DiagID id) { return diagTable[unsigned(id)].name; }

mlir::Location DiagnosticEmitter::getLoc(llvm::SMRange range) const {
  // What has no place in the source (a wrong --kernel) is the tool's own
  // message: the driver prints this location as `tilec: error: ...`
  // (tilec::getToolLoc).
  if (!range.Start.isValid())
    return mlir::NameLoc::get(mlir::StringAttr::get(&context, "tilec"));
  unsigned bufferId = srcMgr.FindBufferContainingLoc(range.Start);
  if (!bufferId)
    return mlir::UnknownLoc::get(&context);
  auto [line, col] = srcMgr.getLineAndColumn(range.Start, bufferId);
  auto filename = mlir::StringAttr::get(&context, srcMgr.getMemoryBuffer(bufferId)->getBufferIdentifier());
  if (!range.End.isValid() || range.End.getPointer() <= range.Start.getPointer())
    return mlir::FileLineColLoc::get(filename, line, col);
  auto [endLine, endCol] = srcMgr.getLineAndColumn(range.End, bufferId);
  return mlir::FileLineColRange::get(filename, line, col, endLine, endCol);
}

mlir::InFlightDiagnostic DiagnosticEmitter::emitRaw(DiagnosticSeverity sev, mlir::Location loc,
                                                    llvm::StringRef msg) {
  switch (sev) {
  case DiagnosticSeverity::Warning:
    return mlir::emitWarning(loc, msg);
  case DiagnosticSeverity::Remark:
    return mlir::emitRemark(loc, msg);
  case DiagnosticSeverity::Note: {
    mlir::InFlightDiagnostic d = context.getDiagEngine().emit(loc, DiagnosticSeverity::Note);
    d << msg;
    return d;
  }
  default:
    return mlir::emitError(loc, msg);
  }
}

//===----------------------------------------------------------------------===//
// RangeDiagnosticPrinter
//===----------------------------------------------------------------------===//

RangeDiagnosticPrinter::RangeDiagnosticPrinter(llvm::SourceMgr &srcMgr, mlir::MLIRContext &context,
                                               llvm::raw_ostream &os)
    : srcMgr(srcMgr), context(context), os(os) {
  handlerId = context.getDiagEngine().registerHandler([this](mlir::Diagnostic &diag) {
    print(diag);
    for (mlir::Diagnostic &note : diag.getNotes())
      print(note);
    return mlir::success();
  });
}

RangeDiagnosticPrinter::~RangeDiagnosticPrinter() { context.getDiagEngine().eraseHandler(handlerId); }

/// Finds the buffer named `filename` in the source manager, or 0.
static unsigned findBuffer(const llvm::SourceMgr &srcMgr, llvm::StringRef filename) {
  for (unsigned i = 1, e = srcMgr.getNumBuffers(); i <= e; ++i)
    if (srcMgr.getMemoryBuffer(i)->getBufferIdentifier() == filename)
      return i;
  return 0;
}

/// The pointer to 1-based (line, col) in a buffer, clamped to the line's end.
static llvm::SMLoc locate(llvm::SourceMgr &srcMgr, unsigned bufferId, unsigned line, unsigned col) {
  llvm::SMLoc lineStart = srcMgr.FindLocForLineAndColumn(bufferId, line, 1);
  if (!lineStart.isValid())
    return {};
  const char *p = lineStart.getPointer();
  const char *end = srcMgr.getMemoryBuffer(bufferId)->getBufferEnd();
  for (unsigned c = 1; c < col && p < end && *p != '\n'; ++c)
    ++p;
  return llvm::SMLoc::getFromPointer(p);
}

void RangeDiagnosticPrinter::print(mlir::Diagnostic &diag) {
  llvm::SourceMgr::DiagKind kind = llvm::SourceMgr::DK_Error;
  switch (diag.getSeverity()) {
  case DiagnosticSeverity::Note: kind = llvm::SourceMgr::DK_Note; break;
  case DiagnosticSeverity::Warning: kind = llvm::SourceMgr::DK_Warning; break;
  case DiagnosticSeverity::Remark: kind = llvm::SourceMgr::DK_Remark; break;
  case DiagnosticSeverity::Error: break;
  }
  std::string msg = diag.str();
  // A named location (a buffer's allocation) is printed at the place it names.
  mlir::Location where = diag.getLocation();
  while (auto named = llvm::dyn_cast<mlir::NameLoc>(where))
    where = named.getChildLoc();
  auto range = llvm::dyn_cast<mlir::FileLineColRange>(where);
  unsigned bufferId = range ? findBuffer(srcMgr, range.getFilename().getValue()) : 0;
  if (!bufferId) {
    // Not in a source we hold: print the location as MLIR would.
    std::string locStr;
    llvm::raw_string_ostream ls(locStr);
    where.print(ls);
    if (range)
      locStr = (range.getFilename().getValue() + ":" + llvm::Twine(range.getStartLine()) + ":" +
                llvm::Twine(range.getStartColumn()))
                   .str();
    srcMgr.PrintMessage(os, llvm::SMDiagnostic(locStr, kind, msg));
    return;
  }
  llvm::SMLoc start = locate(srcMgr, bufferId, range.getStartLine(), range.getStartColumn());
  llvm::SmallVector<llvm::SMRange, 1> ranges;
  if (range.getEndLine() == range.getStartLine() && range.getEndColumn() > range.getStartColumn()) {
    llvm::SMLoc end = locate(srcMgr, bufferId, range.getEndLine(), range.getEndColumn());
    ranges.push_back(llvm::SMRange(start, end));
  }
  const llvm::MemoryBuffer *buf = srcMgr.getMemoryBuffer(bufferId);
  const char *lineStart = start.getPointer(), *lineEnd = start.getPointer();
  while (lineStart > buf->getBufferStart() && lineStart[-1] != '\n' && lineStart[-1] != '\r')
    --lineStart;
  while (lineEnd < buf->getBufferEnd() && *lineEnd != '\n' && *lineEnd != '\r')
    ++lineEnd;
  llvm::StringRef lineText(lineStart, lineEnd - lineStart);
  if (llvm::all_of(lineText, [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    srcMgr.PrintMessage(os, start, kind, msg, ranges);
    return;
  }
  // LLVM prints no caret under a line with non-ASCII bytes: print the line
  // and a caret measured in display columns ourselves.
  std::string loc = (range.getFilename().getValue() + ":" + llvm::Twine(range.getStartLine()) + ":" +
                     llvm::Twine(range.getStartColumn()))
                        .str();
  srcMgr.PrintMessage(os, llvm::SMDiagnostic(loc, kind, msg));
  const char *caretEnd = ranges.empty() ? start.getPointer() + 1 : ranges.front().End.getPointer();
  std::string shown, caret;
  for (const char *p = lineStart; p < lineEnd;) {
    unsigned len = 1, width = 1;
    auto b = static_cast<unsigned char>(*p);
    if (*p == '\t') {
      width = 8 - shown.size() % 8; // approximate: tabs are rare here
      shown.append(width, ' ');
    } else if (b >= 0x80) {
      len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
      if (p + len > lineEnd)
        len = 1;
      int w = llvm::sys::unicode::columnWidthUTF8(llvm::StringRef(p, len));
      if (w < 0) { // not valid UTF-8: show the byte as '?'
        len = 1;
        w = 1;
        shown += '?';
      } else {
        shown.append(p, len);
      }
      width = unsigned(w);
    } else {
      shown += *p;
    }
    char mark = p == start.getPointer() ? '^' : (p > start.getPointer() && p < caretEnd ? '~' : ' ');
    caret.append(width, mark);
    p += len;
  }
  if (start.getPointer() >= lineEnd)
    caret += '^';
  while (!caret.empty() && caret.back() == ' ')
    caret.pop_back();
  os << shown << '\n' << caret << '\n';
}
