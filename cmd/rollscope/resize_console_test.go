package main

import (
	"regexp"
	"strings"
	"testing"
)

// The ReplicaSet under the cursor stays in view whatever the terminal's
// size becomes: the operator who picked the old ReplicaSet during a rollout
// still sees it (marked ▸) after the window is shrunk, widened or made
// shorter than the pane's rows and pod grids.
func TestConsoleResizeKeepsSelectedReplicaSet(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	c := startConsole(t, 160, 40, "--scenario", "frontend", "--speed", "20")
	c.waitFor("rev 3")
	c.waitFor("successfully rolled out")
	c.keys("j", "j")
	selected := regexp.MustCompile(`(?m)^▸ +1 old `)
	c.WaitMatch(selected)
	for _, size := range [][2]string{{"80", "24"}, {"60", "14"}, {"250", "70"}, {"120", "18"}, {"80", "13"}, {"160", "20"}} {
		c.Tmux("resize-window", "-t", "console", "-x", size[0], "-y", size[1])
		header := regexp.MustCompile(`(?m)^ +REV ROLE `)
		c.WaitUntil("the ReplicaSets header and the selected ReplicaSet at "+size[0]+"x"+size[1], func(s string) bool {
			return selected.MatchString(s) && header.MatchString(s) && strings.Contains(s, "deploy frontend")
		})
	}
}
