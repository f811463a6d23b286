package main

import (
	"fmt"
	"strings"
	"testing"
)

// bottomLines are the screen's last two lines: the dialog's action line
// and the footer.
func bottomLines(s string) (action, footer string) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for len(lines) < 2 {
		lines = append([]string{""}, lines...)
	}
	return lines[len(lines)-2], lines[len(lines)-1]
}

// A guided canary's confirmation is longer than an 80×24 or 60×20 screen:
// its y/n line stays under it and in the footer, and End scrolls to the
// last step's request.
func TestConsoleCanaryConfirmationScrollsUnderItsKeys(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			c := startConsole(t, sz.w, sz.h, "--scenario", "canary")
			c.waitFor("successfully rolled out")
			c.askCanary("gcr.io/google-samples/gb-frontend:v3", "steps: pods or % of 10", "")
			c.keys("Enter")
			s := c.waitFor("in steps:")
			action, footer := bottomLines(s)
			if !strings.Contains(action, "y send · n/esc cancel") || !strings.Contains(action, "more") {
				t.Errorf("the confirmation's last line is %q, want its y/n line and how much more there is:\n%s", action, s)
			}
			if !strings.Contains(footer, "y send · n/esc cancel") {
				t.Errorf("the footer is %q, want the dialog's keys:\n%s", footer, s)
			}
			if strings.Contains(s, "step 4:") {
				t.Fatalf("the whole confirmation fits: nothing to scroll:\n%s", s)
			}
			c.keys("End")
			s = c.waitFor("step 4: kubectl patch")
			if action, _ := bottomLines(s); !strings.Contains(action, "y send · n/esc cancel") || !strings.Contains(action, "above") {
				t.Errorf("scrolled to the end, the last line is %q, want the y/n line:\n%s", action, s)
			}
			c.keys("Home")
			c.waitFor("in steps:")
			c.keys("y")
			c.waitFor("canary step 1/4")
		})
	}
}

// The RC rolling update's confirmation keeps its y/n line under the
// controllers at 80×24 and 60×20, and the footer offers the dialog's keys,
// not the page's.
func TestConsoleRCConfirmationKeepsItsKeys(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			c := startConsole(t, sz.w, sz.h, "--scenario", legacyRC, "--speed", "20")
			c.waitFor("rc/web  phase no update running")
			c.keys("i")
			c.waitFor("Rolling update of rc/web")
			c.keys("-l", "nginx:1.27")
			c.keys("Enter")
			s := c.waitFor("send?")
			action, footer := bottomLines(s)
			if !strings.Contains(action, "y send · n/esc cancel") {
				t.Errorf("the confirmation's last line is %q, want its y/n line:\n%s", action, s)
			}
			if !strings.Contains(footer, "y send · n/esc cancel") || strings.Contains(footer, "tab") {
				t.Errorf("the footer is %q, want the dialog's keys only:\n%s", footer, s)
			}
			c.keys("End")
			s = c.waitFor("renamed back")
			if action, _ := bottomLines(s); !strings.Contains(action, "y send · n/esc cancel") {
				t.Errorf("scrolled to the end, the last line is %q, want the y/n line:\n%s", action, s)
			}
			c.keys("y")
			c.waitFor("phase rollout")
		})
	}
}
