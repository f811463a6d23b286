package cluster

import (
	"slices"
	"strings"
)

// ContextNames reads a list of kubeconfig contexts as the operator writes
// it, in --context a,b and :ctx a,b alike: names split at commas, spaces
// around them and empty names dropped, each kept once, in the order
// written (the order the fleet's per-cluster counts follow).
func ContextNames(list string) []string {
	var out []string
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" || slices.Contains(out, name) {
			continue
		}
		out = append(out, name)
	}
	return out
}
