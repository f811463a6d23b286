package recording

import "bytes"

// Masked is what an environment variable's value reads in a recording
// made without --record-env.
const Masked = "***"

// MaskEnv replaces the value of every environment variable in obj (an
// object's JSON as json.Marshal writes it: a pod, a template, a
// ControllerRevision's data) with Masked: each "value" member of the
// entries of every "env" list, at any depth; valueFrom references are
// kept, they hold no secret. Objects with no env list are returned as they
// are, unread. It rewrites the bytes in one pass rather than decoding and
// encoding the object, as most pods carry environment variables.
func MaskEnv(obj []byte) []byte {
	if !bytes.Contains(obj, []byte(`"env":`)) {
		return obj
	}
	out, ok := maskValue(make([]byte, 0, len(obj)), obj, false)
	if !ok {
		return obj
	}
	return out
}

var (
	envKey   = []byte(`"env"`)
	valueKey = []byte(`"value"`)
	maskedV  = []byte(`"` + Masked + `"`)
)

// maskValue appends v with its env values masked. inEnv says v is an env
// list (its object entries are masked) or one of its object entries (its
// "value" is).
func maskValue(out, v []byte, inEnv bool) ([]byte, bool) {
	switch {
	case isObject(v):
		ms, ok := members(v)
		if !ok {
			return nil, false
		}
		out = append(out, '{')
		for i, m := range ms {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(append(out, m.key...), ':')
			switch {
			case inEnv && bytes.Equal(m.key, valueKey):
				out = append(out, maskedV...)
			default:
				isList := len(m.value) > 0 && m.value[0] == '['
				if out, ok = maskValue(out, m.value, isList && bytes.Equal(m.key, envKey)); !ok {
					return nil, false
				}
			}
		}
		return append(out, '}'), true
	case len(v) > 0 && v[0] == '[':
		items, ok := elements(v)
		if !ok {
			return nil, false
		}
		out = append(out, '[')
		for i, e := range items {
			if i > 0 {
				out = append(out, ',')
			}
			// An env list's entries are masked; a list elsewhere is only
			// searched.
			if out, ok = maskValue(out, e, inEnv && isObject(e)); !ok {
				return nil, false
			}
		}
		return append(out, ']'), true
	}
	return append(out, v...), true
}

// elements splits a compact JSON array into its elements.
func elements(arr []byte) ([][]byte, bool) {
	if len(arr) < 2 || arr[0] != '[' || arr[len(arr)-1] != ']' {
		return nil, false
	}
	var out [][]byte
	for i := 1; i < len(arr)-1; {
		if arr[i] == ',' {
			i++
		}
		end := skipValue(arr, i)
		if end < 0 {
			return nil, false
		}
		out = append(out, arr[i:end])
		i = end
	}
	return out, true
}
