package upstreamcases

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadReadsEveryCaseTheFileCounts(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob(filepath.Join(root, MoreFiles))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, path := range append([]string{filepath.Join(root, File)}, more...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var header struct{ Count int }
		if err := json.Unmarshal(b, &header); err != nil {
			t.Fatal(err)
		}
		if header.Count == 0 {
			t.Errorf("%s says it holds no cases", path)
		}
		total += header.Count
	}
	cases := Load(t)
	if len(cases) != total || len(more) == 0 {
		t.Fatalf("loaded %d cases from %d files, the files say they hold %d", len(cases), 1+len(more), total)
	}
	ids := map[string]bool{}
	for _, c := range cases {
		if c.ID == "" || c.Group == "" || c.Function == "" || c.Source.Test == "" || len(c.Input) == 0 || len(c.Expected) == 0 {
			t.Errorf("case %q is missing an id, group, function, upstream test, input or expectation: %+v", c.ID, c)
		}
		if ids[c.ID] {
			t.Errorf("case id %q appears twice", c.ID)
		}
		ids[c.ID] = true
	}
}

func TestByGroupKeepsOnlyThatGroupInFileOrder(t *testing.T) {
	got := ByGroup(t, "slow_start_batch")
	var want []string
	for _, c := range Load(t) {
		if c.Group == "slow_start_batch" {
			want = append(want, c.ID)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %d cases, want %d", len(got), len(want))
	}
	for i, c := range got {
		if c.ID != want[i] {
			t.Errorf("case %d is %s, want %s", i, c.ID, want[i])
		}
	}
}

func TestLoadHandsOutACopy(t *testing.T) {
	first := Load(t)
	first[0].ID = "changed by a careless test"
	if again := Load(t); again[0].ID == first[0].ID {
		t.Error("a change to one caller's cases reached the next caller")
	}
}

func TestNameAndDecode(t *testing.T) {
	c := Case{
		ID:       "resolve_fenceposts-01",
		Source:   Source{Case: "#0"},
		Input:    json.RawMessage(`{"desired": 3}`),
		Expected: json.RawMessage(`{"surge": 1}`),
	}
	if got := c.Name(); got != "resolve_fenceposts-01 #0" {
		t.Errorf("Name() = %q", got)
	}
	var in struct{ Desired int }
	var want struct{ Surge int }
	c.Decode(t, &in, &want)
	if in.Desired != 3 || want.Surge != 1 {
		t.Errorf("decoded input %+v and expectation %+v", in, want)
	}
}

func TestModuleRootOutsideTheModuleSaysWhatToDo(t *testing.T) {
	t.Chdir(t.TempDir())
	_, err := moduleRoot()
	if err == nil || !strings.Contains(err.Error(), "no go.mod") {
		t.Fatalf("moduleRoot outside any module: %v, want an error naming the missing go.mod", err)
	}
}
