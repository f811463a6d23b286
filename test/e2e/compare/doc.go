// Package compare measures the same scenario run on the embedded engine at
// full speed and on the real control plane with hollow nodes, for the
// comparison issue 4 asks for in test/e2e/README.md:
//
//	go test -run '^$' -bench Rollout100 -benchtime 1x ./compare
package compare
