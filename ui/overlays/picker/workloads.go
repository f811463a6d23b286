package picker

import (
	"strings"

	"rollscope/model/action"
	"rollscope/ui/screen"
)

// workloadPrefixes are how `:` names a StatefulSet or a DaemonSet, as
// kubectl spells the kinds.
var workloadPrefixes = []struct {
	kind     action.Object
	prefixes []string
}{
	{action.OnStatefulSet, []string{"sts/", "sts ", "statefulset/", "statefulset ", "statefulsets/"}},
	{action.OnDaemonSet, []string{"ds/", "ds ", "daemonset/", "daemonset ", "daemonsets/"}},
}

// chooseWorkload goes to the view of `:sts NAME` or `:ds NAME`; false when
// the query names neither kind.
func (p *Picker) chooseWorkload() bool {
	if p.mode != ':' {
		return false
	}
	q := strings.TrimSpace(p.query)
	for _, k := range workloadPrefixes {
		for _, prefix := range k.prefixes {
			if !strings.HasPrefix(q, prefix) {
				continue
			}
			name := strings.TrimSpace(q[len(prefix):])
			if name == "" {
				p.s.Toast = "give the " + string(k.kind) + "'s name: :" + strings.TrimRight(prefix, "/ ") + " NAME"
				return true
			}
			p.s.Go(screen.Target{Namespace: p.s.Namespace, Workload: name, WorkloadKind: k.kind})
			return true
		}
	}
	return false
}
