package recording

import (
	"encoding/json"
	"testing"
)

// TestVersionsReadWhatDeltasTold: every version a writer tells, a reader
// reads back, members removed, added and nested included.
func TestVersionsReadWhatDeltasTold(t *testing.T) {
	versions := []string{
		`{"metadata":{"name":"web","labels":{"a":"1","b":"2"}},"spec":{"replicas":3}}`,
		`{"metadata":{"name":"web","labels":{"a":"1"}},"spec":{"replicas":5,"paused":true}}`,
		`{"metadata":{"name":"web"},"spec":{"replicas":5},"status":{"conditions":[{"type":"Available"}]}}`,
	}
	d, v := NewDeltas(), NewVersions()
	ref := Ref{Kind: "Deployment", Name: "web"}
	for i, want := range versions {
		c, _ := d.Tell(ref, []byte(want))
		line, _ := json.Marshal(c)
		var read Change
		json.Unmarshal(line, &read)
		got, err := v.Read(read)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got, []byte(want)) {
			t.Errorf("version %d: read %s, want %s", i, got, want)
		}
	}
	v.Forget(ref)
	if _, err := v.Read(Change{Ref: ref, Patch: []byte(`{}`)}); err == nil {
		t.Error("a patch to a forgotten object was read")
	}
}
