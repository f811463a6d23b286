package recording

import (
	"encoding/json"
	"fmt"
)

// Versions is a reader's Deltas: each object's last version kept decoded,
// so that a patch is merged into it where it is (RFC 7386) instead of
// the whole object being decoded and encoded again for every version.
type Versions struct {
	last map[Ref]map[string]any
}

// NewVersions starts with no object read.
func NewVersions() *Versions { return &Versions{last: map[Ref]map[string]any{}} }

// Read is the object after change, decoded. It is the reader's to read
// until the next Read of the same object, which changes it.
func (v *Versions) Read(c Change) (map[string]any, error) {
	if c.Object != nil {
		var obj map[string]any
		if err := json.Unmarshal(c.Object, &obj); err != nil {
			return nil, fmt.Errorf("%s %s/%s: %w", c.Kind, c.Namespace, c.Name, err)
		}
		v.last[c.Ref] = obj
		return obj, nil
	}
	obj, ok := v.last[c.Ref]
	if !ok {
		return nil, fmt.Errorf("a change to %s %s/%s that was never recorded whole", c.Kind, c.Namespace, c.Name)
	}
	var patch map[string]any
	if err := json.Unmarshal(c.Patch, &patch); err != nil {
		return nil, fmt.Errorf("a change to %s %s/%s does not apply: %w", c.Kind, c.Namespace, c.Name, err)
	}
	merge(obj, patch)
	return obj, nil
}

// Forget drops a deleted object.
func (v *Versions) Forget(ref Ref) { delete(v.last, ref) }

// merge applies a JSON merge patch to doc in place: null deletes a
// member, an object merges into an object, anything else replaces.
func merge(doc, patch map[string]any) {
	for k, p := range patch {
		switch p := p.(type) {
		case nil:
			delete(doc, k)
		case map[string]any:
			if d, ok := doc[k].(map[string]any); ok {
				merge(d, p)
				continue
			}
			fresh := map[string]any{}
			merge(fresh, p) // nulls in a new member are dropped
			doc[k] = fresh
		default:
			doc[k] = p
		}
	}
}
