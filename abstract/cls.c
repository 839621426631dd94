/* cls.c: class and instance values (language.md 8).
 *
 * A class value is made once per evaluation of its `class` statement (the
 * module graph runs once), so its uid, the statement's, identifies it.
 * Members and attributes are tuples of kwarg values: name and value pairs
 * that are already interned, so an instance is two pointers and equality
 * stays one level deep.  Attributes keep the order in which __init__
 * defined them (the printed order); lookups are linear, which is cheap for
 * the handful of attributes a model class has. */
#include <string.h>

#include "internal.h"

const AbsValue *abs_class(AbsStore *st, const char *name, int64_t uid,
                          const AbsValue *base, unsigned flags,
                          const AbsValue *members, const AbsValue *mflags) {
  AbsValue key = {.kind = ABS_CLASS};
  key.cls.name = name;   /* interned by copy_value on a miss */
  key.cls.uid = uid;
  key.cls.base = base;
  key.cls.flags = flags;
  key.cls.members = members;
  key.cls.mflags = mflags;
  uint64_t h = abs_hash_add(abs_hash_start(ABS_CLASS), hash_bytes(name, strlen(name)));
  h = abs_hash_add(abs_hash_add(h, (uint64_t)uid), members->hash);
  key.hash = abs_hash_add(abs_hash_add(h, base ? base->hash : 0), flags);
  return abs_intern_value(st, &key);
}

const AbsValue *abs_instance(AbsStore *st, const AbsValue *cls, const AbsValue *attrs) {
  AbsValue key = {.kind = ABS_INSTANCE};
  key.inst.cls = cls;
  key.inst.attrs = attrs;
  key.hash = abs_hash_add(abs_hash_add(abs_hash_start(ABS_INSTANCE), cls->hash), attrs->hash);
  return abs_intern_value(st, &key);
}

static int attr_index(const AbsValue *attrs, const char *name) {
  for (int i = 0; i < attrs->tuple.n; i++) {
    const AbsValue *kv = attrs->tuple.items[i];
    if (kv->kind == ABS_KWARG && strcmp(kv->kwarg.name, name) == 0) return i;
  }
  return -1;
}

const AbsValue *abs_instance_get(const AbsValue *v, const char *name) {
  int i = attr_index(v->inst.attrs, name);
  return i < 0 ? NULL : v->inst.attrs->tuple.items[i]->kwarg.value;
}

const AbsValue *abs_instance_set(AbsStore *st, const AbsValue *v, const char *name,
                                 const AbsValue *value) {
  const AbsValue *attrs = v->inst.attrs;
  int n = attrs->tuple.n, i = attr_index(attrs, name);
  ABS_SCRATCH(const AbsValue *, items, n + 1);
  if (n) memcpy(items, attrs->tuple.items, sizeof(AbsValue *) * (size_t)n);
  const AbsValue *kv = abs_kwarg(st, name, value);
  if (i >= 0) items[i] = kv;
  else items[n++] = kv;
  return abs_instance(st, v->inst.cls, abs_tuple(st, n, items));
}

const AbsValue *abs_class_member(const AbsValue *cls, const char *name, unsigned *flags,
                                 const AbsValue **owner) {
  for (int depth = 0; cls && depth < 256; cls = cls->cls.base, depth++) {
    int i = attr_index(cls->cls.members, name);
    if (i < 0) continue;
    int64_t f = 0;
    if (flags) *flags = abs_const_int(cls->cls.mflags->tuple.items[i], false, &f) ? (unsigned)f : 0;
    if (owner) *owner = cls;
    return cls->cls.members->tuple.items[i]->kwarg.value;
  }
  return NULL;
}

bool abs_class_derives(const AbsValue *sub, const AbsValue *sup) {
  for (int depth = 0; sub && depth < 256; sub = sub->cls.base, depth++)
    if (sub == sup || (sub->cls.uid == sup->cls.uid && !strcmp(sub->cls.name, sup->cls.name)))
      return true;
  return false;
}
