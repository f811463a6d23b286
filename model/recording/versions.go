package recording

import "fmt"

// Versions is a reader's Deltas: each object's last version kept as its
// JSON, so that a patch is merged into it on the bytes (RFC 7386) and the
// reader decodes each version once, straight into its typed object.
type Versions struct {
	last map[Ref][]byte
}

// NewVersions starts with no object read.
func NewVersions() *Versions { return &Versions{last: map[Ref][]byte{}} }

// Read is the object's JSON after change, which was decoded from a line
// (so its object or patch is valid JSON: decoding the line checked it).
func (v *Versions) Read(c Change) ([]byte, error) {
	if c.Object != nil {
		if !isObject(c.Object) {
			return nil, fmt.Errorf("%s %s/%s: the recorded object is not a JSON object", c.Kind, c.Namespace, c.Name)
		}
		v.last[c.Ref] = c.Object
		return c.Object, nil
	}
	obj, ok := v.last[c.Ref]
	if !ok {
		return nil, fmt.Errorf("a change to %s %s/%s that was never recorded whole", c.Kind, c.Namespace, c.Name)
	}
	if !isObject(c.Patch) {
		return nil, fmt.Errorf("a change to %s %s/%s does not apply: the patch is not a JSON object", c.Kind, c.Namespace, c.Name)
	}
	next, ok := applyPatch(make([]byte, 0, len(obj)+len(c.Patch)), obj, c.Patch)
	if !ok {
		return nil, fmt.Errorf("a change to %s %s/%s does not apply", c.Kind, c.Namespace, c.Name)
	}
	v.last[c.Ref] = next
	return next, nil
}

// Forget drops a deleted object.
func (v *Versions) Forget(ref Ref) { delete(v.last, ref) }
