package tmuxtest

import (
	"regexp"
	"testing"
)

// A program started with awkward arguments gets them as typed, reads the
// keys sent to it, and its exit is reported on the screen.
func TestSessionRunsTypesAndReportsTheExit(t *testing.T) {
	s := Start(t, 60, 10, "sh", "-c", `echo "ready: $1"; read line; echo "got <$line>"; exit 3`, "sh", "it's a $HOME")
	s.WaitFor("ready: it's a $HOME")
	s.Keys("-l", "two words")
	s.Keys("Enter")
	s.WaitFor("got <two words>")
	s.WaitMatch(regexp.MustCompile(`sh exited 3\b`))
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"--kubeconfig":     "--kubeconfig",
		"/tmp/a b/k.yaml":  "'/tmp/a b/k.yaml'",
		"it's":             `'it'\''s'`,
		"":                 "''",
		"ns=e2e-1,x:y@z%+": "ns=e2e-1,x:y@z%+",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
