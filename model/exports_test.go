package model_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// exportChecked are the packages whose exported names must each be used
// outside the package (its own tests do not count): an export nothing else
// uses is unexported or deleted, so a package's surface says what the rest
// of rollscope relies on.
var exportChecked = map[string]string{
	"rollscope/model":          ".",
	"rollscope/model/cluster":  "cluster",
	"rollscope/model/kind":     "kind",
	"rollscope/model/manifest": "manifest",
}

// TestNoExportUsedOnlyInside parses every Go file of the repository (the
// e2e module included) and fails naming the exported identifiers of the
// packages above that nothing outside them uses. A type that an exported
// function, method, field, variable or type of its package names counts as
// used: it is part of that package's surface.
func TestNoExportUsedOnlyInside(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for path, dir := range exportChecked {
		declared, surface := exportsOf(t, fset, dir)
		pkgDir, _ := filepath.Abs(dir)
		used := usesOf(t, fset, root, path, pkgDir)
		var dead []string
		for name, file := range declared {
			if !used[name] && !surface[name] {
				dead = append(dead, name+" ("+file+")")
			}
		}
		sort.Strings(dead)
		if len(dead) > 0 {
			t.Errorf("%s exports names nothing outside it uses; unexport or delete them:\n\t%s",
				path, strings.Join(dead, "\n\t"))
		}
	}
}

// exportsOf returns the exported package-level names declared in dir's
// product files (with their file), and the exported type names its
// exported API mentions.
func exportsOf(t *testing.T, fset *token.FileSet, dir string) (declared map[string]string, surface map[string]bool) {
	t.Helper()
	declared, surface = map[string]string{}, map[string]bool{}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	mention := func(n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if n.IsExported() {
					surface[n.Name] = true
				}
			case *ast.SelectorExpr:
				return false // another package's name
			case *ast.BlockStmt:
				return false // a body is not API
			}
			return true
		})
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(f)
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					declared[d.Name.Name] = base
				} else if !exportedRecv(d.Recv) {
					continue
				}
				mention(d.Type)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							declared[s.Name.Name] = base
							mention(exportedPart(s.Type))
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								declared[n.Name] = base
								mention(s.Type)
							}
						}
					}
				}
			}
		}
	}
	return declared, surface
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(r *ast.FieldList) bool {
	e := r.List[0].Type
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	id, ok := e.(*ast.Ident)
	return ok && id.IsExported()
}

// exportedPart is a type expression with the unexported fields and
// methods of a struct or interface left out.
func exportedPart(e ast.Expr) ast.Node {
	var fl *ast.FieldList
	switch e := e.(type) {
	case *ast.StructType:
		fl = e.Fields
	case *ast.InterfaceType:
		fl = e.Methods
	default:
		return e
	}
	kept := &ast.FieldList{}
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			kept.List = append(kept.List, f) // embedded
			continue
		}
		for _, n := range f.Names {
			if n.IsExported() {
				kept.List = append(kept.List, f)
				break
			}
		}
	}
	return kept
}

// usesOf returns the names of package path that Go files outside pkgDir
// use, qualified by whatever name they import it as.
func usesOf(t *testing.T, fset *token.FileSet, root, path, pkgDir string) map[string]bool {
	t.Helper()
	used := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "vendor" || (strings.HasPrefix(n, ".") && p != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || filepath.Dir(p) == pkgDir {
			return nil
		}
		af, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		local := ""
		for _, is := range af.Imports {
			if v, _ := strconv.Unquote(is.Path.Value); v == path {
				local = filepath.Base(v)
				if is.Name != nil {
					local = is.Name.Name
				}
			}
		}
		if local == "" {
			return nil
		}
		af, err = parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == local {
					used[s.Sel.Name] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return used
}
