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
