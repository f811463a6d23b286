package recording

import (
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// ObjectsAt is the recorded cluster at a moment as objects: every object
// the recording holds at its last version up to at, those deleted by then
// left out, Events too (history, not state). They are in the order a
// cluster would have them created — namespaces, then nodes, then owners
// before what they own — so that they can be loaded into an embedded
// cluster one by one (rehearse from here, --export-scenario).
func (t *Tape) ObjectsAt(at time.Time) []runtime.Object {
	state := map[cluster.ObjectRef]runtime.Object{}
	for _, f := range t.Frames {
		if f.At().After(at) {
			break
		}
		for _, obj := range f.Batch.Objects {
			k, ok := kindOf(obj)
			m, err := meta.Accessor(obj)
			if !ok || err != nil || k == "Event" {
				continue
			}
			state[cluster.ObjectRef{Kind: k, Namespace: m.GetNamespace(), Name: m.GetName()}] = obj
		}
		for _, ref := range f.Batch.Deleted {
			delete(state, ref)
		}
	}
	refs := make([]cluster.ObjectRef, 0, len(state))
	for ref := range state {
		refs = append(refs, ref)
	}
	sort.Slice(refs, func(i, j int) bool {
		a, b := refs[i], refs[j]
		if ra, rb := loadRank(a.Kind), loadRank(b.Kind); ra != rb {
			return ra < rb
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	out := make([]runtime.Object, len(refs))
	for i, ref := range refs {
		// The tape's objects are the console's too: the caller gets its own.
		out[i] = state[ref].DeepCopyObject()
	}
	return out
}

// Tape is the recording the player plays.
func (p *Player) Tape() *Tape { return p.tape }

// loadRank orders kinds so that an object's namespace, node and owners
// exist before it does: what a ReplicaSet, a pod or an AnalysisRun names
// in its ownerReferences is of a lower rank.
func loadRank(kind string) int {
	switch kind {
	case "Namespace":
		return 0
	case "Node":
		return 1
	case "ReplicaSet", "ControllerRevision", "AnalysisRun":
		return 3
	case "Pod":
		return 4
	}
	return 2 // workloads, PDBs, Services, templates
}
