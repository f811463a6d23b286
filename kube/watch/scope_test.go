package watch

import "testing"

// The watch covers every namespace with -A, else the console's one.
func TestScopeOf(t *testing.T) {
	if s := ScopeOf("shop", true); s != (Scope{Namespace: ""}) {
		t.Errorf("-A watches %+v, want every namespace", s)
	}
	if s := ScopeOf("shop", false); s != (Scope{Namespace: "shop"}) {
		t.Errorf("one namespace watches %+v", s)
	}
}
