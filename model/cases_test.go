package model_test

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/util/intstr"
	"os"
	"testing"
)

// upstreamCase is one entry of testdata/upstream-cases.json: an upstream
// table-driven test case as data.
type upstreamCase struct {
	ID       string          `json:"id"`
	Group    string          `json:"group"`
	Note     string          `json:"note"`
	Input    json.RawMessage `json:"input"`
	Expected json.RawMessage `json:"expected"`
	Source   struct {
		Test string `json:"test"`
		Case string `json:"case"`
	} `json:"source"`
}

// casesOf returns every case of group, failing the test when there is none
// (a renamed group must not silently test nothing).
func casesOf(t *testing.T, group string) []upstreamCase {
	t.Helper()
	b, err := os.ReadFile("../testdata/upstream-cases.json")
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

// decode unmarshals a case's input and expected parts.
func (c upstreamCase) decode(t *testing.T, in, want any) {
	t.Helper()
	if err := json.Unmarshal(c.Input, in); err != nil {
		t.Fatalf("%s: decode input: %v", c.ID, err)
	}
	if err := json.Unmarshal(c.Expected, want); err != nil {
		t.Fatalf("%s: decode expected: %v", c.ID, err)
	}
}

// name is the subtest name: the case id and upstream case name.
func (c upstreamCase) name() string { return c.ID + " " + c.Source.Case }

// ref returns a pointer to a copy of v.
func ref[T any](v T) *T { return &v }

// intOrInt is an integer IntOrString.
func intOrInt(n int) intstr.IntOrString { return intstr.FromInt32(int32(n)) }
