package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 pods"}, {1, "1 pod"}, {2, "2 pods"}} {
		if got := Plural(tc.n, "pod"); got != tc.want {
			t.Errorf("Plural(%d, pod) = %q; want %q", tc.n, got, tc.want)
		}
	}
}

// TestCountsGoThroughPlural: no text the console, the forecasts or --plain
// show puts a count before a plural noun by itself ("1 pods"); it goes
// through Plural. The exceptions are upstream's own sentences, which
// rollscope quotes word for word, and counts that are never one.
func TestCountsGoThroughPlural(t *testing.T) {
	countNoun := regexp.MustCompile(`%d (new |old |outdated |scaling )?(pods|nodes|replicas|restarts|disruptions|steps|waves|holds|times)\b`)
	fraction := regexp.MustCompile(`(%d|%s) of %d|%d/%d|%d and %d of %d|%% of %d`)
	verbatim := []string{
		"Waiting for ", "rolling update complete", "rolling update to complete", "partitioned roll out complete", "new replicas have been updated", "old replicas are pending termination", // kubectl rollout status
		"nodes are available",                       // the scheduler's FailedScheduling message
		"allows %d disruptions",                     // the budget-hold annotation, read back with Sscanf
		"replicas: %w", "more than the API accepts", // ranges and limits, never one
		"holds every pod",                          // a verb
		`"%d pods"`, "the daemon pods on %d nodes", // WorkloadForecast picks the singular itself
	}
	for _, dir := range []string{".", "../ui", "../engine/forecast", "../engine/perform"} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(lit.Value)
				// "3 of 5 pods", "3/5 pods" agree with their total.
				if !countNoun.MatchString(fraction.ReplaceAllString(s, "N")) {
					return true
				}
				for _, v := range verbatim {
					if strings.Contains(s, v) || strings.Contains(lit.Value, v) {
						return true
					}
				}
				t.Errorf("%s: %q puts a count before a plural noun: use Plural", path, s)
				return true
			})
			return nil
		})
	}
}
