package deployment

import (
	"encoding/json"
	"os"
	"testing"
)

// upstreamCase is one entry of testdata/upstream-cases.json.
type upstreamCase struct {
	ID       string          `json:"id"`
	Group    string          `json:"group"`
	Note     string          `json:"note"`
	Input    json.RawMessage `json:"input"`
	Expected json.RawMessage `json:"expected"`
	Source   struct {
		Case string `json:"case"`
	} `json:"source"`
}

// casesOf returns every case of group; a group with no case fails the test.
func casesOf(t *testing.T, group string) []upstreamCase {
	t.Helper()
	b, err := os.ReadFile("../../testdata/upstream-cases.json")
	if err != nil {
		t.Fatalf("read upstream cases: %v", err)
	}
	var file struct {
		Cases []upstreamCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatalf("parse upstream cases: %v", err)
	}
	var out []upstreamCase
	for _, c := range file.Cases {
		if c.Group == group {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no upstream cases in group %q", group)
	}
	return out
}

func (c upstreamCase) decode(t *testing.T, in, want any) {
	t.Helper()
	if err := json.Unmarshal(c.Input, in); err != nil {
		t.Fatalf("%s: decode input: %v", c.ID, err)
	}
	if err := json.Unmarshal(c.Expected, want); err != nil {
		t.Fatalf("%s: decode expected: %v", c.ID, err)
	}
}

func (c upstreamCase) name() string { return c.ID + " " + c.Source.Case }
