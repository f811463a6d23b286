package buildinfo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestEveryPackageWithGoroutinesRunsUnderTheRaceDetector: make race runs the
// packages the Makefile names in RACE_PKGS, not every package (linking a
// race binary for code only Update calls cost half a minute of CI for
// nothing). A package whose code or tests start goroutines — a go
// statement or a WaitGroup's Go — must be among them, or its races go
// unseen: model/cluster's concurrent-readers test once ran only without
// the detector. cmd/rollscope is the one exception the Makefile explains.
func TestEveryPackageWithGoroutinesRunsUnderTheRaceDetector(t *testing.T) {
	m := regexp.MustCompile(`(?m)^RACE_PKGS := (.*)$`).FindStringSubmatch(string(read(t, "../../Makefile")))
	if m == nil {
		t.Fatal("the Makefile has no RACE_PKGS")
	}
	raced := goList(t, strings.Fields(m[1])...)
	for _, pkg := range goList(t, "./...") {
		if pkg.path == "rollscope/cmd/rollscope" || slices.ContainsFunc(raced, func(r listed) bool { return r.path == pkg.path }) {
			continue
		}
		if file := startsGoroutines(t, pkg.dir); file != "" {
			t.Errorf("%s starts goroutines (%s) but is not in the Makefile's RACE_PKGS: add it", pkg.path, file)
		}
	}
}

type listed struct{ path, dir string }

func goList(t *testing.T, patterns ...string) []listed {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}} {{.Dir}}"}, patterns...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", patterns, err)
	}
	var pkgs []listed
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		path, dir, _ := strings.Cut(strings.TrimSpace(line), " ")
		pkgs = append(pkgs, listed{path, dir})
	}
	return pkgs
}

// startsGoroutines names the first file in dir (tests included) with a go
// statement or a function literal handed to a method named Go
// (sync.WaitGroup's, errgroup's; the console's screen.Go takes a target).
func startsGoroutines(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				found = true
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" && len(n.Args) == 1 {
					_, found = n.Args[0].(*ast.FuncLit)
				}
			}
			return !found
		})
		if found {
			return filepath.Base(name)
		}
	}
	return ""
}
