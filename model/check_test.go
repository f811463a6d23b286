package model_test

import (
	"strings"
	"testing"

	"rollscope/model"
)

func TestCheckImage(t *testing.T) {
	cases := []struct {
		image string
		want  string // the whole error; "" when accepted
	}{
		{"nginx:1.27", ""},
		{"registry.example.com:5000/team/app:v2@sha256:" + strings.Repeat("a", 64), ""},
		{"", "the image is empty — give a reference such as nginx:1.27"},
		{"  ", "the image is empty — give a reference such as nginx:1.27"},
		{" nginx:1", `image " nginx:1" has spaces around it — remove them`},
		{"Nginx:1", `image "Nginx:1" is not a valid reference (invalid reference format: repository name (library/Nginx) must be lowercase) — use NAME[:TAG][@DIGEST], such as nginx:1.27`},
		{"nginx:1.2:3", `image "nginx:1.2:3" is not a valid reference (invalid reference format) — use NAME[:TAG][@DIGEST], such as nginx:1.27`},
		{"nginx@sha256:abc", `image "nginx@sha256:abc" is not a valid reference (invalid reference format) — use NAME[:TAG][@DIGEST], such as nginx:1.27`},
	}
	for _, tc := range cases {
		if got := errText(model.CheckImage(tc.image)); got != tc.want {
			t.Errorf("CheckImage(%q) = %q, want %q", tc.image, got, tc.want)
		}
	}
}

// TestCheckEnvName: set env sends only what `kubectl set env` takes.
func TestCheckEnvName(t *testing.T) {
	const kubectl = " is not a valid key name: use letters, digits, '_', '-' and '.', not starting with a digit (such as LOG_LEVEL), as kubectl set env requires"
	cases := []struct {
		name string
		want string // the whole error; "" when accepted
	}{
		{"LOG_LEVEL", ""},
		{"my.env-name", ""},
		{"_x", ""},
		{"", "the variable name is empty — give one such as LOG_LEVEL"},
		{"BAD NAME", `"BAD NAME"` + kubectl},
		{"1.x-y", `"1.x-y"` + kubectl},
		{"A=B", `"A=B"` + kubectl},
		{"GRÖSSE", `"GRÖSSE"` + kubectl},
	}
	for _, tc := range cases {
		if got := errText(model.CheckEnvName(tc.name)); got != tc.want {
			t.Errorf("CheckEnvName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCheckDeclaredEnvName: an object a scenario declares may hold any name
// the API server takes.
func TestCheckDeclaredEnvName(t *testing.T) {
	cases := []struct {
		name string
		want string // the whole error; "" when accepted
	}{
		{"LOG_LEVEL", ""},
		{"1.x-y", ""},
		{"", "the variable name is empty — give one such as LOG_LEVEL"},
		{"A=B", `"A=B" is not a valid environment variable name: a valid environment variable name must consist only of printable ASCII characters other than '='`},
		{"A\tB", `"A\tB" is not a valid environment variable name: a valid environment variable name must consist only of printable ASCII characters other than '='`},
	}
	for _, tc := range cases {
		if got := errText(model.CheckDeclaredEnvName(tc.name)); got != tc.want {
			t.Errorf("CheckDeclaredEnvName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
