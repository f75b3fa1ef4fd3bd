// expect: compile-error "wide" 6:29
// Adjacent string literals with different wide prefixes (L and u) cannot be concatenated (C11 6.4.5p2 leaves it implementation-defined; gcc and accjit refuse).
#include <wchar.h>

int main(void) {
  const wchar_t *s = L"abc" u"def";
  return wcslen(s) != 6;
}
