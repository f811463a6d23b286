package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// abortedActions turn the quiet canary into one with a scripted set image and, before
// it finishes, a scripted abort: an abort rollscope's console did not send.
const abortedActions = `actions:
  - {at: 20s, setImage: {target: deployment/frontend, container: php-redis, image: "gcr.io/google-samples/gb-frontend:v3"}}
  - {at: 24s, abort: deployment/frontend}
`

// The timeline and the history say what an abort did, read back from the
// annotations it leaves on the deployment.
func TestConsoleShowsAnAbortInTimelineAndHistory(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	quiet, err := os.ReadFile(quietCanaryPath)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "aborted-canary.yaml")
	if err := os.WriteFile(path, append(quiet, abortedActions...), 0o644); err != nil {
		t.Fatal(err)
	}
	// Wide and tall enough for the history and the timeline side by side.
	c := startConsole(t, 220, 50, "--scenario", path, "--speed", "20")
	// The timeline's column cuts the end ("…, now revision 3").
	const sentence = "revision 2 aborted, back on revision 1's template"
	s := c.waitFor(sentence)
	var inHistory, inTimeline bool
	for _, line := range strings.Split(s, "\n") {
		cut := strings.LastIndex(line, "│")
		if cut < 0 {
			continue
		}
		history, timeline := line[:cut], line[cut:]
		// The history row of revision 2 says aborted; its change-cause
		// comes first, as kubectl rollout history prints it.
		inHistory = inHistory || (strings.Contains(history, "    2  aborted") && strings.Contains(history, "rollscope set image"))
		inTimeline = inTimeline || (strings.Contains(timeline, sentence) && strings.Contains(timeline, "action"))
	}
	if !inHistory || !inTimeline {
		t.Errorf("the abort in the history pane: %v, as a timeline action: %v; want both:\n%s", inHistory, inTimeline, s)
	}
}
