package replicaset

import (
	"sort"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// orphanSet remembers, per namespace, the pods that have no controller, as
// seen by the pod event handlers. Owners look for pods to adopt among them
// instead of matching their selector against every pod of the namespace on
// every sync, which would make a ten-thousand-pod rollout quadratic. It is
// the orphan half of what upstream lists by label; the owned half comes from
// the controller-uid index.
type orphanSet struct {
	mu   sync.Mutex
	byNS map[string]map[string]struct{}
}

func newOrphanSet() *orphanSet { return &orphanSet{byNS: map[string]map[string]struct{}{}} }

// observe records p's current state.
func (s *orphanSet) observe(p *corev1.Pod) {
	if metav1.GetControllerOfNoCopy(p) == nil {
		s.add(p.Namespace, p.Name)
	} else {
		s.remove(p.Namespace, p.Name)
	}
}

func (s *orphanSet) add(namespace, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	names, ok := s.byNS[namespace]
	if !ok {
		names = map[string]struct{}{}
		s.byNS[namespace] = names
	}
	names[name] = struct{}{}
}

func (s *orphanSet) remove(namespace, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if names, ok := s.byNS[namespace]; ok {
		delete(names, name)
		if len(names) == 0 {
			delete(s.byNS, namespace)
		}
	}
}

// names returns the orphans of namespace in name order.
func (s *orphanSet) names(namespace string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.byNS[namespace]))
	for n := range s.byNS[namespace] {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
