package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"rollscope/engine/scenario"
)

var binary string

// TestMain builds the real binary once; the tests run it as a user would.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rollscope-cmd")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "rollscope")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

func rollscope(t *testing.T, args ...string) result {
	t.Helper()
	// A run that should end but does not fails instead of hanging CI.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("running rollscope %v: %v", args, err)
	}
	return result{stdout.String(), stderr.String(), code}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const goodScenario = `name: tiny
nodeGroups:
  - {name: nodes, size: 2}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: app, image: "example.com/app:v1"}]
`

func TestBadInputIsOneLineExitTwoAndNoTrace(t *testing.T) {
	unknownKey := writeFile(t, "typo.yaml", strings.Replace(goodScenario, "name: tiny", "name: tiny\nreplica: 3", 1))
	unknownTarget := writeFile(t, "target.yaml", goodScenario+"actions:\n  - {at: 10s, pause: deployment/nope}\n")
	badImage := writeFile(t, "image.yaml", goodScenario+"actions:\n  - {at: 10s, setImage: {target: deployment/web, container: app, image: \"UPPER CASE\"}}\n")
	malformed := writeFile(t, "broken.yaml", "name: [unclosed\n")
	cases := []struct {
		name string
		args []string
		want string // in the error line
	}{
		{"no scenario", []string{"simulate"}, "-f FILE"},
		{"missing file", []string{"simulate", "-f", "/nonexistent/x.yaml"}, "x.yaml"},
		{"unknown key", []string{"simulate", "-f", unknownKey}, "typo.yaml:2:"},
		{"unknown target", []string{"simulate", "-f", unknownTarget}, "target.yaml:16:"},
		{"invalid image", []string{"simulate", "-f", badImage}, "image.yaml:16:"},
		{"malformed yaml", []string{"simulate", "-f", malformed}, "broken.yaml:"},
		{"negative until", []string{"simulate", "-f", "frontend", "--until", "-5s"}, "--until"},
		{"unknown format", []string{"simulate", "-f", "frontend", "--format", "xml"}, "--format"},
		{"bad duration flag", []string{"simulate", "-f", "frontend", "--until", "soon"}, "until"},
		{"unknown builtin", []string{"scenarios", "show", "nope"}, "nope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rollscope(t, c.args...)
			if r.code != 2 {
				t.Fatalf("exit code %d, want 2 (stderr %q)", r.code, r.stderr)
			}
			if r.stdout != "" {
				t.Fatalf("bad input printed a partial trace: %q", r.stdout)
			}
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "rollscope: ") {
				t.Fatalf("want one line starting \"rollscope: \", got %q", r.stderr)
			}
			if !strings.Contains(lines[0], c.want) {
				t.Fatalf("error %q does not name %q", lines[0], c.want)
			}
		})
	}
}

func TestScenariosListsAndShowsBuiltins(t *testing.T) {
	t.Parallel()
	r := rollscope(t, "scenarios")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range scenario.Builtins() {
		// Each with its one-line description, which the README lists too.
		desc := scenario.BuiltinDescription(name)
		if desc == "" || !strings.Contains(r.stdout, name+strings.Repeat(" ", 14-len(name))+" "+desc+"\n") {
			t.Errorf("`rollscope scenarios` does not list %s with its description %q:\n%s", name, desc, r.stdout)
		}
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("the README does not list the built-in scenario %s", name)
		}
		show := rollscope(t, "scenarios", "show", name)
		if show.code != 0 {
			t.Fatalf("show %s: exit %d: %s", name, show.code, show.stderr)
		}
		if _, err := scenario.Parse(name+".yaml", []byte(show.stdout)); err != nil {
			t.Errorf("the YAML printed by `scenarios show %s` does not parse back: %v", name, err)
		}
	}
}

func TestSimulateWritesAJSONLTraceUntilTheLimit(t *testing.T) {
	r := rollscope(t, "simulate", "-f", "frontend", "--until", "90s")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var last map[string]any
	types := map[string]int{}
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", l, err)
		}
		types[m["type"].(string)]++
		last = m
	}
	if last["type"] != "end" || last["reason"] != "until" || last["t"] != 90.0 {
		t.Fatalf("last line %v, want the end at t=90 with reason until", last)
	}
	for _, typ := range []string{"deployment", "replicaset", "node", "event", "action"} {
		if types[typ] == 0 {
			t.Errorf("trace has no %s lines", typ)
		}
	}
	if !strings.Contains(lines[len(lines)-1], `"t":90.0`) {
		t.Errorf("end line %q does not print t with a decimal", lines[len(lines)-1])
	}
}

func TestSimulateTableFormat(t *testing.T) {
	r := rollscope(t, "simulate", "-f", writeFile(t, "tiny.yaml", goodScenario), "--format", "table")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "web") || strings.Contains(r.stdout, "{") {
		t.Fatalf("table trace does not look like a table:\n%s", r.stdout)
	}
}
