/* test_rules.c: unit tests of the primitives' inference rules
 * (evaluators/rules_*.c), through the engine's eval_prim so that the
 * arity, keyword splitting and early returns of rules.def are exercised too.
 *
 * The bulk is one table: an op, its arguments in the language.md notation
 * (abs_parse_list; `kwarg[name, v]` passes a keyword argument), the printed
 * result, and the diagnostic kind the call must report (or none).  Each
 * case gets its own apply node, since the engine reports one finding per
 * node and kind.  A second table checks the exact wording of the messages
 * users see most. */
#include "unit.h"

#include <string.h>

#include "../../evaluators/rules.h"

/* Also declared in unit.h once the runner calls it. */
int run_rules_tests(void);

enum { NO_DIAG = -1 };

typedef struct Case {
  AnfOp op;
  const char *args;   /* comma-separated values */
  const char *want;   /* abs_print of the result */
  int diag;           /* DiagKind expected, or NO_DIAG */
  const char *msg;    /* expected message prefix, or NULL */
} Case;

#define OK(op, args, want) {op, args, want, NO_DIAG, NULL}
#define ERR(op, args, kind) {op, args, "error", kind, NULL}
/* a diagnostic with a value that is not the error value */
#define DIAG(op, args, want, kind) {op, args, want, kind, NULL}
#define MSG(op, args, want, kind, msg) {op, args, want, kind, msg}

#define TM DK_TYPE_MISMATCH
#define IOR DK_INDEX_OUT_OF_RANGE

static const Case arith_cases[] = {
  OK(OP_ADD, "i64=2, i64=3", "i64=5"),
  OK(OP_ADD, "i64=9223372036854775807, i64=1", "i64"),
  OK(OP_ADD, "i64, i64=1", "i64"),
  OK(OP_ADD, "bool=True, bool=True", "i64=2"),
  OK(OP_ADD, "i64=1, f64=2.5", "f64=3.5"),
  OK(OP_ADD, "str='ab', str='cd'", "str='abcd'"),
  OK(OP_ADD, "str='a', str", "str"),
  OK(OP_ADD, "tuple[i64=1], tuple[str='a', f64]", "tuple[i64=1, str='a', f64]"),
  OK(OP_ADD, "list[i64], list[i64=2]", "list[i64]"),
  ERR(OP_ADD, "list[i64], list[str]", TM),
  ERR(OP_ADD, "str='a', i64=1", TM),
  ERR(OP_ADD, "list[i64], tuple[i64]", TM),
  OK(OP_ADD, "unknown, i64=1", "unknown"),
  OK(OP_ADD, "tuple[i64], unknown", "unknown"),
  OK(OP_ADD, "tuple[error], i64=1", "error"),
  OK(OP_SUB, "i64=2, i64=5", "i64=-3"),
  OK(OP_SUB, "i64=-9223372036854775808, i64=1", "i64"),
  OK(OP_SUB, "f64=0.5, bool=True", "f64=-0.5"),
  ERR(OP_SUB, "str='a', str='b'", TM),
  OK(OP_MUL, "i64=6, i64=7", "i64=42"),
  OK(OP_MUL, "i64=4611686018427387904, i64=2", "i64"),
  OK(OP_MUL, "str='ab', i64=3", "str='ababab'"),
  OK(OP_MUL, "i64=2, str='x'", "str='xx'"),
  OK(OP_MUL, "str='ab', i64=-1", "str=''"),
  OK(OP_MUL, "tuple[i64=1, str], i64=2", "tuple[i64=1, str, i64=1, str]"),
  OK(OP_MUL, "tuple[i64], i64", "unknown"),
  OK(OP_MUL, "tuple[()], i64", "tuple[()]"),
  OK(OP_MUL, "list[f64], i64=3", "list[f64]"),
  OK(OP_MUL, "bool=True, tuple[i64=0]", "tuple[i64=0]"),
  ERR(OP_MUL, "str, f64=2.0", TM),
  ERR(OP_MUL, "tuple[i64], tuple[i64]", TM),
  OK(OP_TRUEDIV, "i64=7, i64=2", "f64=3.5"),
  OK(OP_TRUEDIV, "i64=1, i64=0", "bottom"),
  OK(OP_TRUEDIV, "i64, i64=0", "bottom"),
  OK(OP_TRUEDIV, "i64, i64", "f64"),
  OK(OP_TRUEDIV, "f64=1.0, f64=0.0", "bottom"),
  OK(OP_TRUEDIV, "i64=9007199254740993, i64=1", "f64"),
  OK(OP_FLOORDIV, "i64=7, i64=2", "i64=3"),
  OK(OP_FLOORDIV, "i64=-7, i64=2", "i64=-4"),
  OK(OP_FLOORDIV, "i64=7, i64=-2", "i64=-4"),
  OK(OP_FLOORDIV, "i64=-9223372036854775808, i64=-1", "i64"),
  OK(OP_FLOORDIV, "f64=7.5, i64=2", "f64=3.0"),
  OK(OP_FLOORDIV, "f64=-7.5, i64=2", "f64=-4.0"),
  OK(OP_FLOORDIV, "i64=1, i64=0", "bottom"),
  OK(OP_MOD, "i64=-7, i64=3", "i64=2"),
  OK(OP_MOD, "i64=7, i64=-3", "i64=-2"),
  OK(OP_MOD, "f64=-1.0, f64=3.0", "f64=2.0"),
  OK(OP_MOD, "f64=1.0, f64=-3.0", "f64=-2.0"),
  OK(OP_MOD, "f64=-0.0, f64=3.0", "f64=0.0"),
  OK(OP_MOD, "i64=5, i64=0", "bottom"),
  OK(OP_MOD, "str='%d', i64=3", "str"),
  OK(OP_MOD, "i64=-9223372036854775808, i64=-1", "i64=0"),
  OK(OP_POW, "i64=2, i64=10", "i64=1024"),
  OK(OP_POW, "i64=2, i64=63", "i64"),
  OK(OP_POW, "i64=-2, i64=63", "i64=-9223372036854775808"),
  ERR(OP_POW, "i64=2, i64=-1", TM),
  ERR(OP_POW, "i64, i64=-2", TM),
  OK(OP_POW, "i64=2, f64=0.5", "f64=1.4142135623730951"),
  ERR(OP_POW, "f64=-8.0, f64=0.5", TM),
  OK(OP_POW, "f64=-8.0, i64=3", "f64=-512.0"),
  OK(OP_POW, "f64=0.0, i64=-1", "bottom"),
  OK(OP_POW, "f64=10.0, i64=400", "bottom"),
  OK(OP_POW, "i64, i64", "i64"),
  OK(OP_POW, "bool=True, i64=5", "i64=1"),
  OK(OP_POW, "i64=0, i64=0", "i64=1"),
  OK(OP_BITAND, "i64=12, i64=10", "i64=8"),
  OK(OP_BITOR, "bool=True, bool=False", "bool=True"),
  OK(OP_BITXOR, "bool=True, i64=3", "i64=2"),
  OK(OP_BITAND, "bool, bool", "bool"),
  ERR(OP_BITOR, "f64=1.0, i64=1", TM),
  OK(OP_LSHIFT, "i64=1, i64=62", "i64=4611686018427387904"),
  OK(OP_LSHIFT, "i64=1, i64=63", "i64"),
  OK(OP_LSHIFT, "i64=1, i64=-1", "bottom"),
  OK(OP_LSHIFT, "i64=0, i64=1000", "i64=0"),
  OK(OP_RSHIFT, "i64=-9, i64=1", "i64=-5"),
  OK(OP_RSHIFT, "i64=5, i64=100", "i64=0"),
  ERR(OP_MATMUL, "i64=1, i64=2", TM),
  OK(OP_NEG, "i64=5", "i64=-5"),
  OK(OP_NEG, "bool=True", "i64=-1"),
  OK(OP_NEG, "f64=0.0", "f64=-0.0"),
  OK(OP_NEG, "i64=-9223372036854775808", "i64"),
  OK(OP_NEG, "bool", "i64"),
  OK(OP_NEG, "unknown", "unknown"),
  OK(OP_POS, "bool=False", "i64=0"),
  OK(OP_INVERT, "i64=5", "i64=-6"),
  OK(OP_INVERT, "bool=True", "i64=-2"),
  ERR(OP_INVERT, "f64=1.0", TM),
  ERR(OP_NEG, "str='a'", TM),
};

static const Case compare_cases[] = {
  OK(OP_EQ, "i64=1, f64=1.0", "bool=True"),
  OK(OP_EQ, "i64=1, str='a'", "bool=False"),
  OK(OP_EQ, "i64, str", "bool=False"),
  OK(OP_EQ, "i64, i64=1", "bool"),
  OK(OP_EQ, "none, none", "bool=True"),
  OK(OP_EQ, "none, i64=0", "bool=False"),
  OK(OP_EQ, "tuple[i64=1, str='a'], tuple[i64=1, str='a']", "bool=True"),
  OK(OP_EQ, "tuple[i64=1], tuple[i64=1, i64=2]", "bool=False"),
  OK(OP_EQ, "tuple[i64, i64=2], tuple[i64, i64=3]", "bool=False"),
  OK(OP_EQ, "f64=nan, f64=nan", "bool=False"),
  OK(OP_EQ, "tuple[i64=1], list[i64]", "bool=False"),
  OK(OP_EQ, "i64=9007199254740993, f64=9007199254740992.0", "bool=False"),
  OK(OP_EQ, "range[i64=0, i64=3, i64=1], range[i64=0, i64=3, i64=1]", "bool=True"),
  OK(OP_EQ, "unknown, i64=1", "unknown"),
  OK(OP_NE, "str='a', str='b'", "bool=True"),
  OK(OP_LT, "i64=1, f64=1.5", "bool=True"),
  OK(OP_LT, "str='abc', str='abd'", "bool=True"),
  OK(OP_GE, "str='b', str='abc'", "bool=True"),
  OK(OP_LT, "tuple[i64=1, i64=2], tuple[i64=1, i64=3]", "bool=True"),
  OK(OP_LT, "tuple[i64=1], tuple[i64=1, i64=0]", "bool=True"),
  OK(OP_GT, "tuple[i64=2, str], tuple[i64=1, i64]", "bool=True"),
  OK(OP_LT, "tuple[i64, i64], tuple[i64, i64]", "bool"),
  ERR(OP_LT, "str='a', i64=1", TM),
  ERR(OP_LE, "none, none", TM),
  ERR(OP_LT, "tuple[i64=1, str='a'], tuple[i64=1, i64=2]", TM),
  OK(OP_LT, "unknown, i64=1", "unknown"),
  OK(OP_LE, "bool=True, i64=1", "bool=True"),
  OK(OP_GT, "f64=nan, i64=1", "bool=False"),
  OK(OP_IS, "none, none", "bool=True"),
  OK(OP_IS, "i64, none", "bool=False"),
  OK(OP_IS, "unknown, none", "bool"),
  OK(OP_IS_NOT, "tuple[i64], none", "bool=True"),
  OK(OP_IS, "bool=True, bool=True", "bool=True"),
  OK(OP_IS, "i64=1, i64=1", "bool"),
  OK(OP_IN, "i64=2, tuple[i64=1, i64=2]", "bool=True"),
  OK(OP_IN, "i64=5, tuple[i64=1, i64=2]", "bool=False"),
  OK(OP_IN, "i64, tuple[i64=1, str='a']", "bool"),
  OK(OP_IN, "str='a', tuple[i64, f64]", "bool=False"),
  OK(OP_NOT_IN, "i64=5, tuple[i64=1, i64=2]", "bool=True"),
  OK(OP_IN, "str='ell', str='hello'", "bool=True"),
  OK(OP_IN, "str='z', str='hello'", "bool=False"),
  OK(OP_IN, "str, str='hello'", "bool"),
  ERR(OP_IN, "i64=1, str='a'", TM),
  OK(OP_IN, "str='a', list[bottom]", "bool=False"),
  OK(OP_IN, "str='a', list[str]", "bool"),
  OK(OP_IN, "i64=1, list[str]", "bool=False"),
  OK(OP_IN, "i64=4, range[i64=0, i64=10, i64=2]", "bool=True"),
  OK(OP_IN, "i64=5, range[i64=0, i64=10, i64=2]", "bool=False"),
  OK(OP_IN, "i64=4, range[i64=10, i64=0, i64=-3]", "bool=True"),
  OK(OP_IN, "i64=3, range[i64=0, i64, i64=1]", "bool"),
  ERR(OP_IN, "i64=1, i64=2", TM),
  OK(OP_NOT, "i64=0", "bool=True"),
  OK(OP_NOT, "tuple[()]", "bool=True"),
  OK(OP_NOT, "str='x'", "bool=False"),
  OK(OP_NOT, "list[i64]", "bool"),
  OK(OP_NOT, "none", "bool=True"),
  OK(OP_TRUTH, "tuple[i64]", "bool=True"),
  OK(OP_TRUTH, "f64", "bool"),
  OK(OP_SWITCH, "bool=True, function(add), function(sub)", "function(add)"),
  OK(OP_SWITCH, "i64=0, function(add), function(sub)", "function(sub)"),
  OK(OP_SWITCH, "bool, function(add), function(sub)", "function(add | sub)"),
};

static const Case seq_cases[] = {
  OK(OP_GETITEM, "tuple[i64=1, str='a'], i64=1", "str='a'"),
  OK(OP_GETITEM, "tuple[i64=1, str='a'], i64=-2", "i64=1"),
  ERR(OP_GETITEM, "tuple[i64, i64], i64=3", IOR),
  ERR(OP_GETITEM, "tuple[i64, i64], i64=-3", IOR),
  OK(OP_GETITEM, "tuple[i64=1, i64=2], i64", "i64"),
  ERR(OP_GETITEM, "tuple[i64, str], i64", TM),
  ERR(OP_GETITEM, "tuple[()], i64", IOR),
  OK(OP_GETITEM, "tuple[i64=1, i64=2, i64=3, i64=4, i64=5], slice[i64=1, i64=3, none]",
     "tuple[i64=2, i64=3]"),
  OK(OP_GETITEM, "tuple[i64=1, i64=2, i64=3], slice[none, none, i64=-1]",
     "tuple[i64=3, i64=2, i64=1]"),
  OK(OP_GETITEM, "tuple[i64=1, i64=2, i64=3, i64=4, i64=5], slice[i64=3, i64=0, i64=-2]",
     "tuple[i64=4, i64=2]"),
  OK(OP_GETITEM, "tuple[i64=1, i64=2, i64=3, i64=4, i64=5], slice[i64=-2, none, none]",
     "tuple[i64=4, i64=5]"),
  OK(OP_GETITEM, "tuple[i64=1, i64=2], slice[i64=5, none, none]", "tuple[()]"),
  OK(OP_GETITEM, "tuple[i64, i64], slice[i64, none, none]", "unknown"),
  ERR(OP_GETITEM, "tuple[i64], slice[none, none, i64=0]", TM),
  ERR(OP_GETITEM, "tuple[i64], slice[str='a', none, none]", TM),
  ERR(OP_GETITEM, "tuple[i64], str='a'", TM),
  OK(OP_GETITEM, "tuple[i64=1], bool=False", "i64=1"),
  OK(OP_GETITEM, "tuple[i64=1, str], unknown", "unknown"),
  OK(OP_GETITEM, "tuple[i64, i64 | unbound], i64=1", "i64 | unbound"),
  OK(OP_GETITEM, "list[f64], i64=5", "f64"),
  OK(OP_GETITEM, "list[f64], slice[i64=1, none, none]", "list[f64]"),
  ERR(OP_GETITEM, "list[f64], str='a'", TM),
  OK(OP_GETITEM, "str='h\xc3\xa9llo', i64=1", "str='\xc3\xa9'"),
  OK(OP_GETITEM, "str='hello', slice[i64=1, i64=4, none]", "str='ell'"),
  OK(OP_GETITEM, "str='abc', slice[none, none, i64=-1]", "str='cba'"),
  ERR(OP_GETITEM, "str='abc', i64=3", IOR),
  OK(OP_GETITEM, "str, i64=0", "str"),
  OK(OP_GETITEM, "range[i64=0, i64=10, i64=2], i64=3", "i64=6"),
  OK(OP_GETITEM, "range[i64=0, i64=10, i64=2], i64=-1", "i64=8"),
  OK(OP_GETITEM, "range[i64=0, i64=10, i64=1], slice[none, none, i64=-1]",
     "range[i64=9, i64=-1, i64=-1]"),
  ERR(OP_GETITEM, "i64=3, i64=0", TM),
  ERR(OP_GETITEM, "zip[tuple[i64]], i64=0", TM),
  OK(OP_GETITEM, "unknown, i64=0", "unknown"),
  OK(OP_MAKE_TUPLE, "i64=1, str='a'", "tuple[i64=1, str='a']"),
  OK(OP_MAKE_TUPLE, "", "tuple[()]"),
  OK(OP_MAKE_TUPLE, "i64, unbound", "tuple[i64, unbound]"),
  OK(OP_MAKE_LIST, "i64=1, i64=2", "list[i64]"),
  OK(OP_MAKE_LIST, "", "list[bottom]"),
  OK(OP_MAKE_LIST, "i64=1, i64=1", "list[i64=1]"),
  ERR(OP_MAKE_LIST, "i64=1, str='a'", TM),
  OK(OP_MAKE_LIST, "tuple[i64=1], tuple[i64=2]", "list[tuple[i64]]"),
  ERR(OP_MAKE_LIST, "tuple[i64], tuple[i64, i64]", TM),
  OK(OP_MAKE_SLICE, "i64=1, none, none", "slice[i64=1, none, none]"),
  OK(OP_UNPACK, "tuple[i64, str], i64=2", "tuple[i64, str]"),
  ERR(OP_UNPACK, "tuple[i64, i64, i64], i64=2", DK_ARITY),
  ERR(OP_UNPACK, "tuple[i64, i64], i64=3", DK_ARITY),
  OK(OP_UNPACK, "list[f64], i64=2", "tuple[f64, f64]"),
  ERR(OP_UNPACK, "list[bottom], i64=2", DK_ARITY),
  OK(OP_UNPACK, "str='ab', i64=2", "tuple[str='a', str='b']"),
  OK(OP_UNPACK, "range[i64=0, i64=2, i64=1], i64=2", "tuple[i64=0, i64=1]"),
  OK(OP_UNPACK, "enumerate[tuple[str='a', str='b']], i64=2",
     "tuple[tuple[i64=0, str='a'], tuple[i64=1, str='b']]"),
  OK(OP_UNPACK, "unknown, i64=2", "unknown"),
  ERR(OP_UNPACK, "i64=1, i64=2", TM),
  OK(OP_LEN, "tuple[i64, str]", "i64=2"),
  OK(OP_LEN, "str='h\xc3\xa9llo'", "i64=5"),
  OK(OP_LEN, "list[i64]", "i64"),
  OK(OP_LEN, "list[bottom]", "i64=0"),
  OK(OP_LEN, "range[i64=0, i64=10, i64=3]", "i64=4"),
  OK(OP_LEN, "range[i64=10, i64=0, i64=-3]", "i64=4"),
  OK(OP_LEN, "range[i64=5, i64=0, i64=1]", "i64=0"),
  OK(OP_LEN, "unknown", "i64"),
  ERR(OP_LEN, "i64=3", TM),
  ERR(OP_LEN, "zip[tuple[i64]]", TM),
  ERR(OP_LEN, "tuple[i64], kwarg[x, i64=1]", DK_ARITY),
  ERR(OP_LEN, "kwarg[obj, tuple[i64]]", DK_ARITY),
  OK(OP_ITER_LEN, "tuple[i64, i64, i64]", "i64=3"),
  OK(OP_ITER_LEN, "list[i64]", "i64"),
  OK(OP_ITER_LEN, "range[i64=0, i64=5, i64=1]", "i64=5"),
  OK(OP_ITER_LEN, "enumerate[tuple[i64, i64]]", "i64=2"),
  OK(OP_ITER_LEN, "zip[tuple[i64, i64, i64], tuple[str, str]]", "i64=2"),
  OK(OP_ITER_LEN, "zip[tuple[i64, i64], list[str]]", "i64"),
  OK(OP_ITER_LEN, "zip[tuple[()], list[str]]", "i64=0"),
  OK(OP_ITER_LEN, "str='abc'", "i64=3"),
  ERR(OP_ITER_LEN, "i64=3", TM),
  OK(OP_ITER_GET, "tuple[i64=1, str='a'], i64=1", "str='a'"),
  OK(OP_ITER_GET, "range[i64=2, i64=10, i64=3], i64=2", "i64=8"),
  OK(OP_ITER_GET, "range[i64=2, i64, i64=3], i64", "i64"),
  OK(OP_ITER_GET, "enumerate[tuple[str='a', str='b'], i64=1], i64=1", "tuple[i64=2, str='b']"),
  OK(OP_ITER_GET, "zip[tuple[i64=1, i64=2], list[str]], i64=0", "tuple[i64=1, str]"),
  OK(OP_ITER_GET, "list[f64], i64", "f64"),
  OK(OP_ITER_GET, "str='abc', i64=2", "str='c'"),
  ERR(OP_ITER_GET, "tuple[i64, str], i64", TM),
  OK(OP_COMP_INIT, "tuple[i64, i64]", "tuple[()]"),
  OK(OP_COMP_INIT, "range[i64=0, i64, i64=1]", "list[bottom]"),
  OK(OP_COMP_INIT, "range[i64=0, i64=4, i64=1]", "tuple[()]"),
  OK(OP_COMP_INIT, "list[i64]", "list[bottom]"),
  OK(OP_COMP_INIT, "zip[tuple[i64], range[i64=0, i64=3, i64=1]]", "tuple[()]"),
  OK(OP_COMP_INIT, "unknown", "unknown"),
  OK(OP_COMP_INIT, "tuple[i64, i64], bool=True", "list[bottom]"),
  OK(OP_COMP_INIT, "tuple[i64, i64], bool=False", "tuple[()]"),
  OK(OP_COMP_APPEND, "tuple[i64=1], str='a'", "tuple[i64=1, str='a']"),
  OK(OP_COMP_APPEND, "list[bottom], i64=1", "list[i64=1]"),
  OK(OP_COMP_APPEND, "list[i64], i64=1", "list[i64]"),
  OK(OP_LIST_APPEND, "list[bottom], i64=2", "list[i64=2]"),
  OK(OP_LIST_APPEND, "list[i64=2], i64=4", "list[i64]"),
  ERR(OP_LIST_APPEND, "list[i64], str='a'", TM),
  ERR(OP_LIST_APPEND, "tuple[i64], i64=1", DK_ATTRIBUTE),
  OK(OP_LIST_EXTEND, "list[i64], tuple[i64=100, i64=200]", "list[i64]"),
  OK(OP_LIST_EXTEND, "list[bottom], tuple[i64=1, i64=1]", "list[i64=1]"),
  ERR(OP_LIST_EXTEND, "list[i64], tuple[i64, str]", TM),
  OK(OP_LIST_EXTEND, "list[f64], list[f64=1.0]", "list[f64]"),
  ERR(OP_LIST_EXTEND, "list[f64], i64=1", TM),
  OK(OP_RANGE, "i64=5", "range[i64=0, i64=5, i64=1]"),
  OK(OP_RANGE, "i64=1, i64", "range[i64=1, i64, i64=1]"),
  OK(OP_RANGE, "i64=10, i64=0, i64=-2", "range[i64=10, i64=0, i64=-2]"),
  OK(OP_RANGE, "bool=True", "range[i64=0, i64=1, i64=1]"),
  OK(OP_RANGE, "unknown", "range[i64=0, i64, i64=1]"),
  ERR(OP_RANGE, "i64=0, i64=5, i64=0", TM),
  ERR(OP_RANGE, "f64=2.0", TM),
  ERR(OP_RANGE, "", DK_ARITY),
  ERR(OP_RANGE, "i64, i64, i64, i64", DK_ARITY),
  OK(OP_ENUMERATE, "list[str]", "enumerate[list[str]]"),
  OK(OP_ENUMERATE, "tuple[i64], kwarg[start, i64=1]", "enumerate[tuple[i64], i64=1]"),
  OK(OP_ENUMERATE, "tuple[i64], i64=1", "enumerate[tuple[i64], i64=1]"),
  ERR(OP_ENUMERATE, "i64=3", TM),
  ERR(OP_ENUMERATE, "tuple[i64], kwarg[begin, i64=1]", DK_ARITY),
  OK(OP_ZIP, "tuple[i64, i64], list[str]", "zip[tuple[i64, i64], list[str]]"),
  ERR(OP_ZIP, "tuple[i64], i64=1", TM),
  OK(OP_TUPLE, "", "tuple[()]"),
  OK(OP_TUPLE, "tuple[i64, str]", "tuple[i64, str]"),
  OK(OP_TUPLE, "list[i64]", "unknown"),
  OK(OP_TUPLE, "range[i64=0, i64=3, i64=1]", "tuple[i64=0, i64=1, i64=2]"),
  OK(OP_TUPLE, "str='ab'", "tuple[str='a', str='b']"),
  ERR(OP_TUPLE, "i64=1", TM),
  OK(OP_LIST, "tuple[i64=1, i64=2]", "list[i64]"),
  OK(OP_LIST, "", "list[bottom]"),
  OK(OP_LIST, "range[i64=0, i64, i64=1]", "list[i64]"),
  OK(OP_LIST, "str", "list[str]"),
  ERR(OP_LIST, "tuple[i64, str]", TM),
};

static const Case builtin_cases[] = {
  OK(OP_INT, "f64=2.7", "i64=2"),
  OK(OP_INT, "f64=-2.7", "i64=-2"),
  OK(OP_INT, "str=' 12 '", "i64=12"),
  OK(OP_INT, "str='1_000'", "i64=1000"),
  OK(OP_INT, "str='x'", "bottom"),
  OK(OP_INT, "str='ff', i64=16", "i64=255"),
  OK(OP_INT, "str='0x1f', kwarg[base, i64=0]", "i64=31"),
  OK(OP_INT, "str='010', i64=0", "bottom"),
  OK(OP_INT, "str='-9223372036854775808'", "i64=-9223372036854775808"),
  OK(OP_INT, "str='9223372036854775808'", "i64"),
  OK(OP_INT, "str", "i64"),
  OK(OP_INT, "bool=True", "i64=1"),
  OK(OP_INT, "f64=nan", "bottom"),
  OK(OP_INT, "f64=1e300", "i64"),
  OK(OP_INT, "", "i64=0"),
  OK(OP_INT, "unknown", "i64"),
  ERR(OP_INT, "tuple[i64]", TM),
  ERR(OP_INT, "i64=5, i64=10", TM),
  OK(OP_FLOAT, "i64=3", "f64=3.0"),
  OK(OP_FLOAT, "str='1e3'", "f64=1000.0"),
  OK(OP_FLOAT, "str=' -inf '", "f64=-inf"),
  OK(OP_FLOAT, "str='1_0.5'", "f64=10.5"),
  OK(OP_FLOAT, "str='.5'", "f64=0.5"),
  OK(OP_FLOAT, "str='abc'", "bottom"),
  OK(OP_FLOAT, "str='1_'", "bottom"),
  OK(OP_FLOAT, "str='0x10'", "bottom"),
  OK(OP_FLOAT, "str", "f64"),
  ERR(OP_FLOAT, "none", TM),
  OK(OP_BOOL, "i64=0", "bool=False"),
  OK(OP_BOOL, "tuple[i64]", "bool=True"),
  OK(OP_BOOL, "list[i64]", "bool"),
  OK(OP_BOOL, "", "bool=False"),
  OK(OP_STR, "i64=42", "str='42'"),
  OK(OP_STR, "f64=0.1", "str='0.1'"),
  OK(OP_STR, "f64=1e16", "str='1e+16'"),
  OK(OP_STR, "tuple[i64=1, str='a']", "str=\"(1, 'a')\""),
  OK(OP_STR, "tuple[i64=1]", "str='(1,)'"),
  OK(OP_STR, "none", "str='None'"),
  OK(OP_STR, "bool=True", "str='True'"),
  OK(OP_STR, "list[i64]", "str"),
  OK(OP_STR, "", "str=''"),
  OK(OP_ABS, "i64=-3", "i64=3"),
  OK(OP_ABS, "f64=-2.5", "f64=2.5"),
  OK(OP_ABS, "bool=True", "i64=1"),
  OK(OP_ABS, "i64=-9223372036854775808", "i64"),
  ERR(OP_ABS, "str='a'", TM),
  OK(OP_MIN, "i64=3, i64=1, i64=2", "i64=1"),
  OK(OP_MAX, "i64=1, f64=2.5", "f64=2.5"),
  OK(OP_MIN, "i64=1, f64=1.0", "i64=1"),
  OK(OP_MAX, "i64, i64=0", "i64"),
  OK(OP_MIN, "i64, f64", "f64"),
  OK(OP_MAX, "tuple[i64=3, i64=7, i64=5]", "i64=7"),
  OK(OP_MIN, "list[f64]", "f64"),
  OK(OP_MIN, "tuple[()]", "bottom"),
  OK(OP_MIN, "tuple[()], kwarg[default, none]", "none"),
  OK(OP_MAX, "str='apple', str='pear'", "str='pear'"),
  OK(OP_MAX, "range[i64=0, i64=5, i64=1]", "i64=4"),
  OK(OP_MIN, "unknown", "unknown"),
  ERR(OP_MIN, "i64=1, str='a'", TM),
  ERR(OP_MAX, "i64=3", TM),
  ERR(OP_MAX, "tuple[i64], tuple[i64, i64]", TM),
  ERR(OP_MAX, "i64=1, i64=2, kwarg[default, i64=0]", TM),
  OK(OP_SUM, "tuple[i64=1, i64=2, i64=3]", "i64=6"),
  OK(OP_SUM, "tuple[i64=1, f64=2.5]", "f64=3.5"),
  OK(OP_SUM, "tuple[i64, i64=2]", "i64"),
  OK(OP_SUM, "list[f64]", "f64"),
  OK(OP_SUM, "list[i64]", "i64"),
  OK(OP_SUM, "list[bottom]", "i64=0"),
  OK(OP_SUM, "tuple[()]", "i64=0"),
  OK(OP_SUM, "range[i64=0, i64=5, i64=1]", "i64=10"),
  OK(OP_SUM, "tuple[i64=1, i64=2], i64=10", "i64=13"),
  OK(OP_SUM, "tuple[f64=0.5], kwarg[start, f64=1.0]", "f64=1.5"),
  ERR(OP_SUM, "tuple[str='a']", TM),
  ERR(OP_SUM, "tuple[str='a'], str=''", TM),
  ERR(OP_SUM, "i64=5", TM),
  OK(OP_ISINSTANCE, "i64, function(int)", "bool=True"),
  OK(OP_ISINSTANCE, "bool, function(int)", "bool=True"),
  OK(OP_ISINSTANCE, "i64=1, function(float)", "bool=False"),
  OK(OP_ISINSTANCE, "f64, tuple[function(int), function(float)]", "bool=True"),
  OK(OP_ISINSTANCE, "unknown, function(int)", "bool"),
  OK(OP_ISINSTANCE, "str, type=str", "bool=True"),
  OK(OP_ISINSTANCE, "tuple[i64], function(list)", "bool=False"),
  OK(OP_ISINSTANCE, "exception[NotImplementedError], function(RuntimeError)", "bool=True"),
  ERR(OP_ISINSTANCE, "i64, i64=1", TM),
  OK(OP_PRINT, "str='x', i64=1", "none"),
  OK(OP_PRINT, "str='x', kwarg[sep, str='']", "none"),
  ERR(OP_PRINT, "kwarg[color, str='red']", DK_ARITY),
  OK(OP_PARTIAL, "function(add), i64=1", "function(partial(add, i64=1))"),
  ERR(OP_PARTIAL, "i64=3", DK_NOT_CALLABLE),
  ERR(OP_PARTIAL, "kwarg[func, function(add)]", DK_ARITY),
  OK(OP_PARTIAL, "function(add), kwarg[k, i64=1]", "function(partial(add, kwarg[k, i64=1]))"),
  ERR(OP_ISINSTANCE, "i64, kwarg[t, function(int)]", DK_ARITY),
  ERR(OP_REVEAL_TYPE, "kwarg[obj, i64=1]", DK_ARITY),
  OK(OP_VALUE_ERROR, "str='bad'", "exception[ValueError, str='bad']"),
  OK(OP_NOT_IMPLEMENTED_ERROR, "", "exception[NotImplementedError]"),
  OK(OP_RAISE, "exception[ValueError]", "bottom"),
  DIAG(OP_RAISE, "i64=5", "bottom", TM),
  OK(OP_CHECK_BOUND, "i64=1, str='x'", "i64=1"),
  ERR(OP_CHECK_BOUND, "unbound, str='y'", DK_UNDEFINED_NAME),
  DIAG(OP_CHECK_BOUND, "i64 | unbound, str='x'", "i64", DK_UNDEFINED_NAME),
  OK(OP_LIST_SHARED, "list[i64=1, i64=2]", "list[unknown]"),
  OK(OP_LIST_SHARED, "tuple[list[i64=1,], i64=3]", "tuple[list[unknown], i64=3]"),
  OK(OP_LIST_SHARED, "list[f64] | none", "list[unknown] | none"),
  OK(OP_LIST_SHARED, "Tensor[f32, (3,)]", "Tensor[f32, (3,)]"),
  OK(OP_LIST_SHARED, "i64=4, str='n'", "i64=4"),
  DIAG(OP_LIST_SHARED, "list[i64=1,], str='xs'", "list[i64=1,]", DK_UNSUPPORTED),
  OK(OP_KWARG, "str='axis', i64=1", "kwarg[axis, i64=1]"),
  OK(OP_GETATTR, "unknown, str='foo'", "unknown"),
  ERR(OP_GETATTR, "tuple[i64], str='foo'", DK_ATTRIBUTE),
  OK(OP_GETATTR, "module[math], str='sqrt'", "function(math.sqrt)"),
  OK(OP_GETATTR, "module[math], str='pi'", "f64=3.141592653589793"),
  ERR(OP_GETATTR, "module[math], str='tau'", DK_ATTRIBUTE),
  DIAG(OP_GETATTR, "str='a', str='upper'", "unknown", DK_UNSUPPORTED),
  OK(OP_FSTRING, "i64=1, str", "str"),
  OK(OP_MATH_SQRT, "i64=4", "f64=2.0"),
  OK(OP_MATH_SQRT, "f64=-1.0", "bottom"),
  OK(OP_MATH_SQRT, "f64", "f64"),
  OK(OP_MATH_EXP, "i64=0", "f64=1.0"),
  OK(OP_MATH_EXP, "i64=1000", "bottom"),
  OK(OP_MATH_LOG, "i64=1", "f64=0.0"),
  OK(OP_MATH_LOG, "i64=0", "bottom"),
  OK(OP_MATH_LOG, "i64=8, i64=2", "f64=3.0"),
  OK(OP_MATH_LOG, "i64=8, i64=1", "bottom"),
  ERR(OP_MATH_SQRT, "str='4'", TM),
  DIAG(OP_REVEAL_TYPE, "tuple[i64=3, str]", "tuple[i64=3, str]", DK_REVEAL),
};

/* The wording users see. */
static const Case message_cases[] = {
  MSG(OP_ADD, "i64, tuple[i64=1, i64]", "error", TM,
      "unsupported operand types for +: i64 and tuple[i64, i64]"),
  MSG(OP_GETITEM, "tuple[i64, i64], i64=3", "error", IOR,
      "tuple index 3 out of range for tuple[i64, i64] (length 2)"),
  MSG(OP_GETITEM, "tuple[i64, str], i64", "error", TM,
      "indexing tuple[i64, str] with a non-constant index"),
  MSG(OP_UNPACK, "tuple[i64, i64, i64], i64=2", "error", DK_ARITY,
      "too many values to unpack (expected 2"),
  MSG(OP_UNPACK, "tuple[i64, i64], i64=3", "error", DK_ARITY,
      "not enough values to unpack (expected 3, got 2"),
  MSG(OP_MAKE_LIST, "i64=1, str='a'", "error", TM,
      "list items must have one type (DSL rule): i64 and str"),
  MSG(OP_POW, "i64=2, i64=-1", "error", TM, "negative exponent in int ** int"),
  MSG(OP_RANGE, "i64=0, i64=3, i64=0", "error", TM, "range() arg 3 must not be zero"),
  MSG(OP_CHECK_BOUND, "unbound, str='y'", "error", DK_UNDEFINED_NAME,
      "local variable 'y' is referenced before assignment"),
  MSG(OP_CHECK_BOUND, "f64 | unbound, str='z'", "f64", DK_UNDEFINED_NAME,
      "local variable 'z' might be referenced before assignment"),
  MSG(OP_GETATTR, "tuple[i64], str='foo'", "error", DK_ATTRIBUTE,
      "'tuple' object has no attribute 'foo'"),
  MSG(OP_LT, "str='a', i64=1", "error", TM,
      "'<' not supported between instances of str and i64"),
  MSG(OP_REVEAL_TYPE, "i64=3", "i64=3", DK_REVEAL, "Revealed type is \"i64=3\""),
  MSG(OP_ENUMERATE, "tuple[i64], kwarg[begin, i64=1]", "error", DK_ARITY,
      "enumerate() got an unexpected keyword argument 'begin'"),
};

/* ---- the harness ---- */

typedef struct Fixture {
  AbsStore *st;
  DiagSink sink;
  Engine *E;
  AnfNode **sites;
  int nsites, next;
} Fixture;

/* An engine over a module with one graph holding n apply nodes: a call
 * site per case. */
static Fixture *fixture_new(int n) {
  Fixture *fx = fx_new(Fixture);
  char *text = fx_alloc_atomic((size_t)n + 2);   /* one byte per site */
  memset(text, 'x', (size_t)n + 1);
  text[n + 1] = 0;
  SrcFile *file = srcfile_new("rules.py", text, (size_t)n + 1);
  StrTab *strings = fx_new(StrTab);
  strtab_init(strings);
  AnfModule *m = anf_module_new(file, strings);
  Span span = span_from_bytes(file, 0, (uint32_t)n + 1);
  AnfGraph *g = anf_graph_new(m, "<module>", NULL, span);
  m->module_graph = g;
  fx->sites = fx_array(AnfNode *, n);
  for (int i = 0; i < n; i++)   /* distinct spans: the sink merges equal findings */
    fx->sites[i] = anf_apply_op(g, span_from_bytes(file, (uint32_t)i, (uint32_t)i + 1),
                                OP_PRINT, 0);
  anf_set_output(g, anf_const_none(m, span));
  fx->nsites = n;
  fx->st = abs_store_new();
  diag_sink_init(&fx->sink);
  fx->E = engine_new(m, fx->st, &fx->sink, NULL);
  return fx;
}

static const AbsValue *parse_args(AbsStore *st, const char *text) {
  AbsParseError err = {0};
  const AbsValue *v = abs_parse_list(st, text, strlen(text), NULL, NULL, &err);
  if (!v) fail_msg("cannot parse arguments \"%s\": %s at %zu", text, err.msg, err.offset);
  return v;
}

static bool check_case(Fixture *fx, const Case *k) {
  assert_true(fx->next < fx->nsites);
  const AbsValue *args = parse_args(fx->st, k->args);
  EvalCall base = {.E = fx->E, .st = fx->st, .node = fx->sites[fx->next++], .ctx = NULL,
                   .op = k->op};
  int before = fx->sink.diags.len;
  const AbsValue *r = eval_prim(&base, k->op, args->tuple.n,
                                (const AbsValue *const *)args->tuple.items);
  const char *got = abs_to_string(r);
  bool ok = strcmp(got, k->want) == 0;
  int after = fx->sink.diags.len;
  const Diag *d = after > before ? fx->sink.diags.items[after - 1] : NULL;
  if (k->diag == NO_DIAG) ok = ok && !d;
  else ok = ok && d && (int)d->kind == k->diag;
  if (ok && k->msg) ok = strncmp(d->msg, k->msg, strlen(k->msg)) == 0;
  if (!ok)
    print_error("%s(%s): got %s%s%s%s, want %s (%s)\n", anf_op_name(k->op), k->args, got,
                d ? " [" : "", d ? diag_kind_name(d->kind) : "", d ? "]" : "", k->want,
                d ? d->msg : "no diagnostic");
  return ok;
}

static void run_table(const Case *cases, int n) {
  Fixture *fx = fixture_new(n);
  int failed = 0;
  for (int i = 0; i < n; i++) failed += !check_case(fx, &cases[i]);
  if (failed) fail_msg("%d of %d cases failed", failed, n);
}

#define RUN(table) run_table(table, (int)(sizeof table / sizeof table[0]))

static void test_arith(void **state) { RUN(arith_cases); }
static void test_compare(void **state) { RUN(compare_cases); }
static void test_seq(void **state) { RUN(seq_cases); }
static void test_builtin(void **state) { RUN(builtin_cases); }
static void test_messages(void **state) { RUN(message_cases); }

/* rules.def: every line names a rule with sane arities; the ops left to
 * the engine (unpack_call, math.pi) and to issue 4 have no line. */
static void test_registry(void **state) {
  static const struct { AnfOp op; PrimRule rule; int lo, hi; } table[] = {
#define RULE(op, lo, hi, fn, flags) {op, fn, lo, hi},
#include "../../evaluators/rules.def"
#undef RULE
  };
  int n = (int)(sizeof table / sizeof table[0]);
  bool seen[OP__COUNT] = {false};
  for (int i = 0; i < n; i++) {
    assert_non_null(table[i].rule);
    assert_true(table[i].lo >= 0);
    assert_true(table[i].hi == -1 || table[i].hi >= table[i].lo);
    assert_false(seen[table[i].op]);   /* one line per op */
    seen[table[i].op] = true;
  }
  assert_true(n >= 75);
  assert_false(seen[OP_UNPACK_CALL]);
  assert_false(seen[OP_MATH_PI]);
  assert_false(seen[OP_ZEROS]);
}

int run_rules_tests(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_arith),
    cmocka_unit_test(test_compare),
    cmocka_unit_test(test_seq),
    cmocka_unit_test(test_builtin),
    cmocka_unit_test(test_messages),
    cmocka_unit_test(test_registry),
  };
  return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
