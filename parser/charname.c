/* charname.c: the code point a \\N{NAME} escape names.
 *
 * libunistring knows the Unicode character names and some aliases; CPython
 * (unicodedata) also accepts the aliases of the C0 and C1 controls (NULL,
 * LINE FEED, LF, ...: the table below, checked against CPython 3.11 by
 * tests/types/str_named_escapes.py) and the algorithmic names of the CJK
 * unified ideographs.  Lookups ignore case, as CPython's do, except for
 * the algorithmic names (CJK ideographs, Hangul syllables). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <uniname.h>
#include "internal.h"

static const struct { const char *name; unsigned cp; } control_aliases[] = {
  {"NULL", 0x00},
  {"NUL", 0x00},
  {"START OF HEADING", 0x01},
  {"SOH", 0x01},
  {"START OF TEXT", 0x02},
  {"STX", 0x02},
  {"END OF TEXT", 0x03},
  {"ETX", 0x03},
  {"END OF TRANSMISSION", 0x04},
  {"EOT", 0x04},
  {"ENQUIRY", 0x05},
  {"ENQ", 0x05},
  {"ACKNOWLEDGE", 0x06},
  {"ACK", 0x06},
  {"ALERT", 0x07},
  {"BEL", 0x07},
  {"BACKSPACE", 0x08},
  {"BS", 0x08},
  {"CHARACTER TABULATION", 0x09},
  {"HORIZONTAL TABULATION", 0x09},
  {"HT", 0x09},
  {"TAB", 0x09},
  {"LINE FEED", 0x0A},
  {"NEW LINE", 0x0A},
  {"END OF LINE", 0x0A},
  {"LF", 0x0A},
  {"NL", 0x0A},
  {"EOL", 0x0A},
  {"LINE TABULATION", 0x0B},
  {"VERTICAL TABULATION", 0x0B},
  {"VT", 0x0B},
  {"FORM FEED", 0x0C},
  {"FF", 0x0C},
  {"CARRIAGE RETURN", 0x0D},
  {"CR", 0x0D},
  {"SHIFT OUT", 0x0E},
  {"LOCKING-SHIFT ONE", 0x0E},
  {"SO", 0x0E},
  {"SHIFT IN", 0x0F},
  {"LOCKING-SHIFT ZERO", 0x0F},
  {"SI", 0x0F},
  {"DATA LINK ESCAPE", 0x10},
  {"DLE", 0x10},
  {"DEVICE CONTROL ONE", 0x11},
  {"DC1", 0x11},
  {"DEVICE CONTROL TWO", 0x12},
  {"DC2", 0x12},
  {"DEVICE CONTROL THREE", 0x13},
  {"DC3", 0x13},
  {"DEVICE CONTROL FOUR", 0x14},
  {"DC4", 0x14},
  {"NEGATIVE ACKNOWLEDGE", 0x15},
  {"NAK", 0x15},
  {"SYNCHRONOUS IDLE", 0x16},
  {"SYN", 0x16},
  {"END OF TRANSMISSION BLOCK", 0x17},
  {"ETB", 0x17},
  {"CANCEL", 0x18},
  {"CAN", 0x18},
  {"END OF MEDIUM", 0x19},
  {"EOM", 0x19},
  {"SUBSTITUTE", 0x1A},
  {"SUB", 0x1A},
  {"ESCAPE", 0x1B},
  {"ESC", 0x1B},
  {"INFORMATION SEPARATOR FOUR", 0x1C},
  {"FILE SEPARATOR", 0x1C},
  {"FS", 0x1C},
  {"INFORMATION SEPARATOR THREE", 0x1D},
  {"GROUP SEPARATOR", 0x1D},
  {"GS", 0x1D},
  {"INFORMATION SEPARATOR TWO", 0x1E},
  {"RECORD SEPARATOR", 0x1E},
  {"RS", 0x1E},
  {"INFORMATION SEPARATOR ONE", 0x1F},
  {"UNIT SEPARATOR", 0x1F},
  {"US", 0x1F},
  {"SP", 0x20},
  {"DELETE", 0x7F},
  {"DEL", 0x7F},
  {"NEXT LINE", 0x85},
  {"NEL", 0x85},
  {"PADDING CHARACTER", 0x80},
  {"HIGH OCTET PRESET", 0x81},
  {"BREAK PERMITTED HERE", 0x82},
  {"NO BREAK HERE", 0x83},
  {"INDEX", 0x84},
  {"START OF SELECTED AREA", 0x86},
  {"END OF SELECTED AREA", 0x87},
  {"CHARACTER TABULATION SET", 0x88},
  {"CHARACTER TABULATION WITH JUSTIFICATION", 0x89},
  {"LINE TABULATION SET", 0x8A},
  {"PARTIAL LINE FORWARD", 0x8B},
  {"PARTIAL LINE BACKWARD", 0x8C},
  {"REVERSE LINE FEED", 0x8D},
  {"SINGLE SHIFT TWO", 0x8E},
  {"SINGLE SHIFT THREE", 0x8F},
  {"DEVICE CONTROL STRING", 0x90},
  {"PRIVATE USE ONE", 0x91},
  {"PRIVATE USE TWO", 0x92},
  {"SET TRANSMIT STATE", 0x93},
  {"CANCEL CHARACTER", 0x94},
  {"MESSAGE WAITING", 0x95},
  {"START OF GUARDED AREA", 0x96},
  {"END OF GUARDED AREA", 0x97},
  {"START OF STRING", 0x98},
  {"SINGLE GRAPHIC CHARACTER INTRODUCER", 0x99},
  {"SINGLE CHARACTER INTRODUCER", 0x9A},
  {"CONTROL SEQUENCE INTRODUCER", 0x9B},
  {"STRING TERMINATOR", 0x9C},
  {"OPERATING SYSTEM COMMAND", 0x9D},
  {"PRIVACY MESSAGE", 0x9E},
  {"APPLICATION PROGRAM COMMAND", 0x9F},
};

/* Unicode 14 (CPython 3.11): "CJK UNIFIED IDEOGRAPH-XXXX" names these. */
static const unsigned cjk_ranges[][2] = {
  {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0x20000, 0x2A6DF}, {0x2A700, 0x2B738},
  {0x2B740, 0x2B81D}, {0x2B820, 0x2CEA1}, {0x2CEB0, 0x2EBE0}, {0x30000, 0x3134A},
};

static long cjk_ideograph(const char *hex) {
  size_t n = strlen(hex);
  if (n < 4 || n > 5) return -1;
  for (size_t i = 0; i < n; i++)
    if (!isxdigit((unsigned char)hex[i])) return -1;
  unsigned long cp = strtoul(hex, NULL, 16);
  for (size_t i = 0; i < sizeof cjk_ranges / sizeof *cjk_ranges; i++)
    if (cp >= cjk_ranges[i][0] && cp <= cjk_ranges[i][1]) return (long)cp;
  return -1;
}

long unicode_char_named(const char *t, size_t n) {
  enum { MAX_NAME = 127 };
  static const char cjk[] = "CJK UNIFIED IDEOGRAPH-";
  if (n == 0 || n > MAX_NAME) return -1;
  char name[MAX_NAME + 1];
  bool lower = false;
  for (size_t i = 0; i < n; i++) {
    lower |= islower((unsigned char)t[i]) != 0;
    name[i] = (char)toupper((unsigned char)t[i]);
  }
  name[n] = 0;
  /* the algorithmic names are matched as written (CPython) */
  static const char hangul[] = "HANGUL SYLLABLE ";
  if (lower && (!strncmp(name, cjk, sizeof cjk - 1) || !strncmp(name, hangul, sizeof hangul - 1)))
    return -1;
  ucs4_t c = unicode_name_character(name);
  if (c != UNINAME_INVALID) return (long)c;
  for (size_t i = 0; i < sizeof control_aliases / sizeof *control_aliases; i++)
    if (!strcmp(name, control_aliases[i].name)) return (long)control_aliases[i].cp;
  if (!strncmp(name, cjk, sizeof cjk - 1)) return cjk_ideograph(name + sizeof cjk - 1);
  return -1;
}
