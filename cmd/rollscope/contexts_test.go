package main

import (
	"strings"
	"testing"
)

// contextsKubeconfig has east and west, whose servers nothing listens on,
// and bare, whose cluster has no server.
const contextsKubeconfig = `apiVersion: v1
kind: Config
current-context: east
clusters:
- {name: e, cluster: {server: "https://127.0.0.1:1"}}
- {name: w, cluster: {server: "https://127.0.0.1:2"}}
- {name: b, cluster: {}}
users:
- {name: ops, user: {token: secret}}
contexts:
- {name: east, context: {cluster: e, user: ops}}
- {name: west, context: {cluster: w, user: ops}}
- {name: bare, context: {cluster: b, user: ops}}
`

// Bad input on several contexts is one line naming the context: an
// unknown one and a kubeconfig without any exit 2 before anything is
// sent; contexts that do not answer, or whose cluster has no server, are
// each named on the one line of exit 1.
func TestSeveralContextsRefuseBadInputNamingTheContext(t *testing.T) {
	config := writeFile(t, "kubeconfig", contextsKubeconfig)
	empty := writeFile(t, "empty", "apiVersion: v1\nkind: Config\n")
	for _, c := range []struct {
		name  string
		args  []string
		code  int
		wants []string
	}{
		{"unknown context", []string{"--kubeconfig", config, "--context", "east,nope"}, 2, []string{`context "nope" is not in ` + config + " (contexts: bare, east, west)"}},
		{"no contexts", []string{"--kubeconfig", empty, "--all-contexts"}, 2, []string{"has no contexts"}},
		{"none answers", []string{"--kubeconfig", config, "--context", "west,bare"}, 1, []string{`context "west"`, `context "bare"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rollscope(t, append(c.args, "--plain")...)
			if r.code != c.code || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line", r.code, r.stderr, c.code)
			}
			for _, want := range c.wants {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr %q lacks %q", r.stderr, want)
				}
			}
		})
	}
}
