// Package upstreamcases loads testdata/upstream-cases.json — upstream
// Kubernetes table-driven test cases written down as data — for the tests of
// the packages that must behave as upstream does. Only tests import it.
//
// The file is found from the working directory, which is the package
// directory under `go test`, by walking up to the module root (the directory
// holding go.mod), so every package reads the same copy wherever it sits.
package upstreamcases

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// File is where the cases live, relative to the module root.
const File = "testdata/upstream-cases.json"

// MoreFiles is the pattern of the files that hold the cases of further
// kinds, read after File.
const MoreFiles = "testdata/upstream-cases-*.json"

// Case is one upstream test case: what the upstream function was given and
// what upstream expects of it.
type Case struct {
	ID string `json:"id"`
	// Group gathers the cases of one upstream behaviour; tests ask for a group.
	Group string `json:"group"`
	// Function is the upstream function under test.
	Function string `json:"function"`
	Source   Source `json:"source"`
	// Input and Expected keep the case's own shape; each test decodes them
	// into the structs it needs.
	Input    json.RawMessage `json:"input"`
	Expected json.RawMessage `json:"expected"`
	// Note says how to read the values where that is not obvious.
	Note string `json:"note"`
}

// Source names the upstream test a case was taken from.
type Source struct {
	Repo string `json:"repo"`
	File string `json:"file"`
	Test string `json:"test"`
	Case string `json:"case"`
}

// Name is a subtest name: the case id and the upstream case name, so a
// failure can be traced back to upstream.
func (c Case) Name() string { return c.ID + " " + c.Source.Case }

// Decode unmarshals the case's input into in and its expectation into want,
// failing the test when either does not fit.
func (c Case) Decode(t testing.TB, in, want any) {
	t.Helper()
	if err := json.Unmarshal(c.Input, in); err != nil {
		t.Fatalf("%s: decode input: %v", c.ID, err)
	}
	if err := json.Unmarshal(c.Expected, want); err != nil {
		t.Fatalf("%s: decode expected: %v", c.ID, err)
	}
}

// Load returns every case, in file order. A missing or unreadable file fails
// the test.
func Load(t testing.TB) []Case {
	t.Helper()
	cases, err := parsed()
	if err != nil {
		t.Fatalf("load upstream cases: %v", err)
	}
	return slices.Clone(cases)
}

// ByGroup returns the cases of group, in file order. A group with no case
// fails the test: a renamed group must not silently test nothing.
func ByGroup(t testing.TB, group string) []Case {
	t.Helper()
	var out []Case
	for _, c := range Load(t) {
		if c.Group == group {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no upstream cases in group %q of %s", group, File)
	}
	return out
}

// parsed reads the file once per test binary: most packages ask for
// several groups.
var parsed = sync.OnceValues(func() ([]Case, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	// Cases of further kinds live beside the first file, one file a kind
	// (upstream-cases-workloads.json: StatefulSets and DaemonSets).
	more, err := filepath.Glob(filepath.Join(root, MoreFiles))
	if err != nil {
		return nil, err
	}
	var cases []Case
	for _, path := range append([]string{filepath.Join(root, File)}, more...) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		var file struct {
			Cases []Case `json:"cases"`
		}
		if err := json.Unmarshal(b, &file); err != nil {
			return nil, fmt.Errorf("parse %s: %w", path, err)
		}
		cases = append(cases, file.Cases...)
	}
	return cases, nil
})

// moduleRoot walks up from the working directory to the directory that holds
// go.mod.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the module root: %w", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("look for go.mod in %s: %w", dir, err)
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no go.mod in %s or any directory above it: run the tests inside the rollscope module", wd)
		}
	}
}
