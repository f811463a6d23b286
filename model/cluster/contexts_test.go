package cluster

import (
	"slices"
	"testing"
)

func TestContextNamesKeepsTheOrderWrittenOnce(t *testing.T) {
	for in, want := range map[string][]string{
		"eu-west":                   {"eu-west"},
		"eu-west,us-east":           {"eu-west", "us-east"},
		" us-east , eu-west,,":      {"us-east", "eu-west"},
		"a,b,a":                     {"a", "b"},
		",":                         nil,
		"ap-south,eu-west,ap-south": {"ap-south", "eu-west"},
	} {
		if got := ContextNames(in); !slices.Equal(got, want) {
			t.Errorf("ContextNames(%q) = %q, want %q", in, got, want)
		}
	}
}
