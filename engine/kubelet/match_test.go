package kubelet

import (
	"reflect"
	"testing"
	"time"
)

func TestMatchRuleFirstMatchWins(t *testing.T) {
	rules := []ImageRule{
		{Match: "gcr.io/google-samples/gb-frontend:*", Pull: time.Second, Start: 2 * time.Second, Ready: 3 * time.Second},
		{Match: "*:broken", CrashLoop: true},
		{Match: "*:missing", PullError: true},
		{Match: "registry.local/*/api:v*", Ready: 7 * time.Second},
		{Match: "*", Start: 5 * time.Second},
	}
	cases := []struct {
		image   string
		want    int // index into rules; -1 for no match
		matched bool
	}{
		{"gcr.io/google-samples/gb-frontend:v4", 0, true},
		{"gcr.io/google-samples/gb-frontend:broken", 0, true}, // the first rule wins over a later one
		{"nginx:broken", 1, true},
		{"docker.io/library/nginx:missing", 2, true},
		{"registry.local/team/a/api:v2", 3, true}, // '*' spans '/'
		{"registry.local/api:v2", 4, true},
		{"busybox", 4, true},
	}
	for _, c := range cases {
		got, ok := MatchRule(rules, c.image)
		if ok != c.matched || !reflect.DeepEqual(got, rules[c.want]) {
			t.Errorf("MatchRule(%q) = %+v, %v; want rule %d", c.image, got, ok, c.want)
		}
	}
}

func TestMatchRuleDefaultsWhenNothingMatches(t *testing.T) {
	got, ok := MatchRule([]ImageRule{{Match: "nginx:*"}}, "redis:7")
	if ok {
		t.Fatal("matched a rule that does not match")
	}
	if got.Start != time.Second || got.Ready != time.Second || got.Pull != 0 || got.CrashLoop || got.PullError {
		t.Errorf("default rule = %+v, want 1s start and 1s ready", got)
	}
}

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true},
		{"", "", true},
		{"", "a", false},
		{"a*c", "abbbc", true},
		{"a*c", "abbbcd", false},
		{"*:v1", "repo/name:v1", true},
		{"*:v1", "repo/name:v10", false},
		{"**x", "abx", true},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXcYb", false},
		{"exact", "exact", true},
		{"exact", "exactly", false},
	}
	for _, c := range cases {
		if got := globMatch(c.pattern, c.s); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

func TestFullReference(t *testing.T) {
	cases := map[string]string{
		"nginx":                                 "docker.io/library/nginx:latest",
		"nginx:1.27":                            "docker.io/library/nginx:1.27",
		"bitnami/redis:7":                       "docker.io/bitnami/redis:7",
		"gcr.io/google-samples/app:v4":          "gcr.io/google-samples/app:v4",
		"localhost/app":                         "localhost/app:latest",
		"registry.local:5000/team/app":          "registry.local:5000/team/app:latest",
		"nginx@sha256:abc":                      "docker.io/library/nginx@sha256:abc",
		"registry.local:5000/app:v1@sha256:abc": "registry.local:5000/app:v1@sha256:abc",
	}
	for in, want := range cases {
		if got := fullReference(in); got != want {
			t.Errorf("fullReference(%q) = %q, want %q", in, got, want)
		}
	}
	if got := imageID("nginx:1.27"); got[:len("docker.io/library/nginx@sha256:")] != "docker.io/library/nginx@sha256:" {
		t.Errorf("imageID = %q, want the repository's digest reference", got)
	}
}

// A run's container ID is containerd's form of the SHA-256 of
// "uid/container/restart" (digests from sha256sum), so it is the same in every
// run and new at every restart.
func TestContainerIDNamesOneRun(t *testing.T) {
	cases := []struct {
		uid, container string
		restart        int32
		want           string
	}{
		{"uid-1", "app", 0, "containerd://5c469d9959aa33c4e22aa47f9ca53e688519784b08122a7286851e57c6c3b127"},
		{"a0b1c2d3-0000-4000-8000-000000000001", "sidecar", 12, "containerd://28f9ed5e5f7d8bb0a221fa0aa4599d185dbbd58d3c5eebb64a7489713506a0dc"},
	}
	for _, c := range cases {
		if got := containerID(c.uid, c.container, c.restart); got != c.want {
			t.Errorf("containerID(%q, %q, %d) = %q, want %q", c.uid, c.container, c.restart, got, c.want)
		}
	}
}

func TestBackOffDoublesFrom10sUpTo5m(t *testing.T) {
	want := []time.Duration{10, 20, 40, 80, 160, 300, 300, 300}
	for i, w := range want {
		if got := backOff(i + 1); got != w*time.Second {
			t.Errorf("backOff(%d) = %v, want %v", i+1, got, w*time.Second)
		}
	}
	if got := backOff(1000); got != maxBackOff {
		t.Errorf("backOff(1000) = %v, want the 5m cap", got)
	}
}
