package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Live-mode flags are checked before anything connects: each mistake is one
// line and exit code 2, like the embedded run's bad input.
func TestSimulateRefusesFlagsThatDoNotApply(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "-f", "frontend", "--kubeconfig", "/nowhere", "--speed", "2"}, "--speed has no meaning on a live cluster"},
		{[]string{"simulate", "-f", "frontend", "--speed", "2"}, "--speed is the console's"},
		{[]string{"simulate", "-f", "frontend", "--no-hollow-nodes"}, "--no-hollow-nodes is for a live cluster"},
		{[]string{"simulate", "-f", "no-such-scenario", "--kubeconfig", "/nowhere"}, "no-such-scenario"},
	}
	for _, c := range cases {
		r := rollscope(t, c.args...)
		if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
			t.Errorf("rollscope %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q",
				strings.Join(c.args, " "), r.code, r.stdout, r.stderr, c.want)
		}
	}
}

// An unreachable cluster is one line and exit code 1, with no trace.
func TestSimulateOnAnUnreachableClusterSaysSo(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := "https://" + l.Addr().String()
	l.Close()
	config := filepath.Join(t.TempDir(), "config")
	text := "apiVersion: v1\nkind: Config\ncurrent-context: lab\nclusters:\n- name: lab\n  cluster: {server: \"" + server + "\", insecure-skip-tls-verify: true}\n" +
		"users:\n- name: ops\n  user: {token: secret}\ncontexts:\n- name: lab\n  context: {cluster: lab, user: ops}\n"
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	r := rollscope(t, "simulate", "-f", "frontend", "--kubeconfig", config)
	if r.code != 1 || r.stdout != "" || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "cannot reach the API server") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line saying the API server cannot be reached", r.code, r.stdout, r.stderr)
	}
}
