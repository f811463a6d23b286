package recording

import "bytes"

// mergePatch is the JSON merge patch (RFC 7386) from was to now, both
// objects as json.Marshal writes them: the members whose values differ,
// nested objects patched member by member, removed members as null — the
// patch json-patch's CreateMergePatch writes. It splits each object into
// its members' raw bytes in one pass and compares those, instead of
// decoding both versions into trees of interfaces: a pod's status change is
// most of what a rollout records, and the recorder runs on every batch
// beside the console. Its input is json.Marshal's, so it is valid JSON and
// the scan does not check it again.
//
// ok is false when either is not a JSON object; the caller then records
// the whole object.
func mergePatch(was, now []byte) (patch []byte, ok bool) {
	a, okA := members(was)
	b, okB := members(now)
	if !okA || !okB {
		return nil, false
	}
	out := make([]byte, 0, 256)
	return writePatch(out, a, b), true
}

// member is one member of an object: its key as written (quoted) and its
// value's bytes.
type member struct{ key, value []byte }

// writePatch appends the patch from a to b: b's changed or added members
// in b's order, then a's removed ones as null.
func writePatch(out []byte, a, b []member) []byte {
	out = append(out, '{')
	first := true
	sep := func() {
		if !first {
			out = append(out, ',')
		}
		first = false
	}
	for _, m := range b {
		old, had := find(a, m.key)
		if had && bytes.Equal(old, m.value) {
			continue
		}
		sep()
		out = append(append(out, m.key...), ':')
		if had && isObject(old) && isObject(m.value) {
			x, _ := members(old)
			y, _ := members(m.value)
			out = writePatch(out, x, y)
			continue
		}
		out = append(out, m.value...)
	}
	for _, m := range a {
		if _, kept := find(b, m.key); !kept {
			sep()
			out = append(append(out, m.key...), ":null"...)
		}
	}
	return append(out, '}')
}

func find(ms []member, key []byte) ([]byte, bool) {
	for _, m := range ms {
		if bytes.Equal(m.key, key) {
			return m.value, true
		}
	}
	return nil, false
}

func isObject(v []byte) bool { return len(v) > 0 && v[0] == '{' }

// members splits a compact JSON object into its members; ok is false when
// obj is not an object.
func members(obj []byte) (ms []member, ok bool) {
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return nil, false
	}
	i := 1
	for i < len(obj)-1 {
		if obj[i] == ',' {
			i++
		}
		kEnd := skipString(obj, i)
		if kEnd < 0 || kEnd >= len(obj) || obj[kEnd] != ':' {
			return nil, false
		}
		vEnd := skipValue(obj, kEnd+1)
		if vEnd < 0 {
			return nil, false
		}
		ms = append(ms, member{key: obj[i:kEnd], value: obj[kEnd+1 : vEnd]})
		i = vEnd
	}
	return ms, true
}

// skipString is the index just past the string that starts at i.
func skipString(s []byte, i int) int {
	if i >= len(s) || s[i] != '"' {
		return -1
	}
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue is the index just past the value that starts at i: a string,
// an object or array (to its matching close, strings skipped whole), or a
// number, true, false or null (to the next comma or close).
func skipValue(s []byte, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for ; i < len(s); i++ {
			switch s[i] {
			case '"':
				if i = skipString(s, i); i < 0 {
					return -1
				}
				i--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == ',' || c == '}' || c == ']' {
			return i
		}
	}
	return -1
}

// applyPatch appends doc with the merge patch applied: a null member
// deletes, an object merges into an object member by member, anything else
// replaces; a new member's nulls are dropped (merged into an empty
// object). Both are compact JSON objects; json.Marshal's output is.
func applyPatch(out, doc, patch []byte) ([]byte, bool) {
	d, okD := members(doc)
	p, okP := members(patch)
	if !okD || !okP {
		return nil, false
	}
	out = append(out, '{')
	first := true
	write := func(key []byte) {
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(append(out, key...), ':')
	}
	var ok bool
	for _, m := range d {
		pv, patched := find(p, m.key)
		switch {
		case !patched:
			write(m.key)
			out = append(out, m.value...)
		case string(pv) == "null":
		case isObject(pv):
			into := m.value
			if !isObject(into) {
				into = emptyObject
			}
			write(m.key)
			if out, ok = applyPatch(out, into, pv); !ok {
				return nil, false
			}
		default:
			write(m.key)
			out = append(out, pv...)
		}
	}
	for _, m := range p {
		if _, had := find(d, m.key); had || string(m.value) == "null" {
			continue
		}
		write(m.key)
		if !isObject(m.value) {
			out = append(out, m.value...)
			continue
		}
		if out, ok = applyPatch(out, emptyObject, m.value); !ok {
			return nil, false
		}
	}
	return append(out, '}'), true
}

var emptyObject = []byte("{}")
