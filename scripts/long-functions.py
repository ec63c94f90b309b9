#!/usr/bin/env python3
"""Lists every function over MAX_FUNC lines and every file over MAX_FILE lines in lib/.

The house limits (issue #11): no function in lib/ over 150 lines, no file over 700.
A function's length counts its lines from the first line of its signature to its closing
brace. The scanner is a simple brace matcher over C++ with comments, string and character
literals and preprocessor lines blanked out; namespace, class, struct, union and extern "C"
bodies are descended into, so that member functions defined in a class are measured too.
Lambdas and local classes count towards the function that contains them.

Usage: scripts/long-functions.py [--max-func N] [--max-file N] [DIR...]   (default DIR: lib)
Exit status 1 when anything is over a limit; each finding is printed as
  path:line: function 'name' is N lines (limit 150)
  path: file is N lines (limit 700)
"""
import argparse
import os
import re
import sys

SOURCE_EXTS = ('.cpp', '.h', '.hpp', '.cc', '.c')
CONTAINER_RE = re.compile(r'^(?:template\s*<.*>\s*)?(?:namespace|class|struct|union)\b', re.S)
EXTERN_RE = re.compile(r'^extern\s*"[^"]*"\s*$', re.S)
ENUM_RE = re.compile(r'^(?:typedef\s+)?enum\b')


def strip(text):
    """Blanks comments, literals and preprocessor lines, keeping newlines and offsets."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == '#':
            # Preprocessor directive, with backslash continuations.
            j = i
            while j < n and text[j] != '\n':
                if text[j] == '\\' and j + 1 < n and text[j + 1] == '\n':
                    j += 2
                    continue
                j += 1
            out.append(''.join('\n' if ch == '\n' else ' ' for ch in text[i:j]))
            i = j
            continue
        if c == '/' and text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
            continue
        if c == '/' and text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(''.join('\n' if ch == '\n' else ' ' for ch in text[i:j]))
            i = j
            continue
        if c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                end = text.find(')' + m.group(1) + '"', i)
                j = n if end < 0 else end + len(m.group(1)) + 2
                out.append(''.join('\n' if ch == '\n' else ' ' for ch in text[i:j]))
                i = j
                continue
        if c in '"\'':
            # A ' between digits is a digit separator (1'000), not a literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum() \
                    and re.match(r'[0-9a-fA-F]', text[i - 1]):
                m = re.search(r'[0-9A-Za-z_\'.]*$', text[:i])
                if m and m.group(0)[:1].isdigit():
                    out.append(' ')
                    i += 1
                    continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + ' ' * (j - i - 2) + c if j - i >= 2 else ' ' * (j - i))
            i = j
            continue
        out.append(c)
        if c == '\n':
            at_line_start = True
        elif not c.isspace():
            at_line_start = False
        i += 1
    return ''.join(out)


def function_name(header):
    """The qualified name before the parameter list of a function header."""
    m = re.search(r'((?:[A-Za-z_]\w*\s*::\s*)*~?(?:operator\s*(?:\(\)|[^\s(]+)|[A-Za-z_]\w*))\s*\(', header)
    return re.sub(r'\s+', '', m.group(1)) if m else '?'


def classify(header):
    """'container', 'function' or 'other' for the text before a '{' at container scope."""
    h = header.strip()
    h = re.sub(r'^(?:(?:public|private|protected)\s*:\s*)+', '', h)
    if EXTERN_RE.match(h):
        return 'container'
    if ENUM_RE.match(h):
        return 'other'
    if CONTAINER_RE.match(h):
        return 'container'
    if '(' in h and ')' in h and not h.rstrip().endswith('='):
        return 'function'
    return 'other'


def ctor_init_pending(header):
    """True when the header ends inside a constructor's member initializer list."""
    depth = 0
    last_close = -1
    for i, c in enumerate(header):
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                last_close = i
    if last_close < 0:
        return False
    tail = header[last_close + 1:]
    return re.search(r'(?<!:):(?!:)', tail) is not None


def scan(path, max_func):
    with open(path, encoding='utf-8', errors='replace') as f:
        raw = f.read()
    text = strip(raw)
    findings = []
    # Stack of scopes: ('container'|'function'|'other', start offset, name).
    stack = [('container', 0, None)]
    header_start = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        kind = stack[-1][0]
        if c in ';{}' or (c == ':' and kind == 'container'):
            pass
        else:
            i += 1
            continue
        if c == ':' and kind == 'container':
            # An access specifier ends a header; '::' and ctor-init colons do not.
            seg = text[header_start:i].strip()
            if seg in ('public', 'private', 'protected') and not text.startswith('::', i) \
                    and not text[i - 1] == ':':
                header_start = i + 1
            i += 1
            continue
        if c == ';':
            if kind == 'container':
                header_start = i + 1
            i += 1
            continue
        if c == '{':
            if kind != 'container':
                stack.append(('other', i, None))
                i += 1
                continue
            header = text[header_start:i]
            cls = classify(header)
            if cls == 'function' and ctor_init_pending(header):
                # Member initializer: `a{x}` -- '{' right after a name or template args.
                before = header.rstrip()
                if before and (before[-1].isalnum() or before[-1] in '_>'):
                    depth, j = 0, i
                    while j < n:
                        if text[j] == '{':
                            depth += 1
                        elif text[j] == '}':
                            depth -= 1
                            if depth == 0:
                                break
                        j += 1
                    i = j + 1
                    continue
            if cls == 'function':
                stripped = header.lstrip()
                start = header_start + (len(header) - len(stripped))
                stack.append(('function', start, function_name(header)))
            else:
                stack.append((cls, i, None))
            i += 1
            continue
        # '}'
        if len(stack) > 1:
            kind, start, name = stack.pop()
            if kind == 'function':
                first = text.count('\n', 0, start) + 1
                last = text.count('\n', 0, i) + 1
                length = last - first + 1
                if length > max_func:
                    findings.append((first, name, length))
        if stack[-1][0] == 'container':
            header_start = i + 1
        i += 1
    return findings


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--max-func', type=int, default=150)
    ap.add_argument('--max-file', type=int, default=700)
    ap.add_argument('dirs', nargs='*')
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dirs = args.dirs or [os.path.join(root, 'lib')]
    count = 0
    for d in dirs:
        for dirpath, dirnames, filenames in os.walk(d):
            dirnames.sort()
            for fn in sorted(filenames):
                if not fn.endswith(SOURCE_EXTS):
                    continue
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, root)
                with open(path, encoding='utf-8', errors='replace') as f:
                    head = f.read(4096)
                    f.seek(0)
                    lines = sum(1 for _ in f)
                if re.search(r'(?i)\b(automatically generated|do not edit)\b', head):
                    continue
                if lines > args.max_file:
                    print(f'{rel}: file is {lines} lines (limit {args.max_file})')
                    count += 1
                for line, name, length in scan(path, args.max_func):
                    print(f"{rel}:{line}: function '{name}' is {length} lines (limit {args.max_func})")
                    count += 1
    if count:
        print(f'long-functions: {count} over the limits (split the function or the file: '
              'helpers by the cases they handle, a new focused .cpp in the CMakeLists)')
        return 1
    print(f'long-functions: no function over {args.max_func} lines, no file over '
          f'{args.max_file} lines')
    return 0


if __name__ == '__main__':
    sys.exit(main())
