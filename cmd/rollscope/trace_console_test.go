package main

import (
	"strings"
	"testing"
)

// A trace says what each scripted action set, in camelCase keys, and the
// table puts actions in rows of their own kind with one time precision.
func TestTraceActionsSayWhatTheySet(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	r := rollscope(t, "simulate", "-f", "frontend", "--until", "61s")
	if !strings.Contains(r.stdout, `"action":"setImage","target":"deployment/frontend","container":"php-redis","image":"gcr.io/google-samples/gb-frontend:v3","result":"ok"`) ||
		strings.Contains(r.stdout, `available_condition`) {
		t.Errorf("the trace's action line does not say what it set, or a key is not camelCase:\n%s", r.stdout)
	}
	c := startConsole(t, 200, 50, "simulate", "-f", "frontend", "--until", "61s", "--format", "table")
	s := c.waitFor("rollscope exited 0")
	if !strings.Contains(s, "60.000    action  deployment/frontend") || !strings.Contains(s, "setImage container=php-redis image=gcr.io/google-samples/gb-frontend:v3: ok") {
		t.Errorf("the table's action row:\n%s", s)
	}
}
