package e2etest

import (
	"slices"
	"testing"
)

// A package's cluster outlives the test that started it: its cleanups and
// its context wait for TestMain's Stop, which runs them last first and may
// log although that test is over.
func TestPackageTBDefersTheCleanupsToStop(t *testing.T) {
	var p *PackageTB
	var ran []string
	t.Run("first test", func(t *testing.T) {
		p = ForPackage(t)
		p.Cleanup(func() { ran = append(ran, "control plane") })
		p.Cleanup(func() {
			ran = append(ran, "hollow nodes")
			p.Logf("logged after the first test ended")
			p.Errorf("an error after the first test ended is printed only")
		})
	})
	if len(ran) != 0 {
		t.Fatalf("cleanups ran when the first test ended: %v", ran)
	}
	if err := p.Context().Err(); err != nil {
		t.Fatalf("the cluster's context ended with the first test: %v", err)
	}
	p.Stop(true)
	if want := []string{"hollow nodes", "control plane"}; !slices.Equal(ran, want) {
		t.Errorf("Stop ran %v, want %v", ran, want)
	}
	if p.Context().Err() == nil {
		t.Error("the cluster's context outlived Stop")
	}
	if !p.Failed() {
		t.Error("after Stop(true) Failed says no test failed: the control plane's logs would be dropped")
	}
}
