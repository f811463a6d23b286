package rollout

import (
	"fmt"
	"strings"

	"rollscope/model/kind"
	"rollscope/ui/draw"
	"rollscope/ui/screen"
)

// noneSelected says how to pick a deployment, or another kind's page:
// "… or :rc, :sts, :ds NAME for a ReplicationController, StatefulSet, DaemonSet".
var noneSelected = func() string {
	var shorts, names []string
	for _, e := range kind.Builtin() { // what every cluster, the embedded one too, serves
		if e.Kind != kind.Deployment {
			shorts, names = append(shorts, ":"+e.Short), append(names, e.Name)
		}
	}
	return "no deployment selected — press : to pick one, or " + strings.Join(shorts, ", ") + " NAME for a " + strings.Join(names, ", ")
}()

// absentLine says why no deployment is shown: none picked, its namespace
// does not exist, it was deleted (and when), it does not exist, or the
// cluster has not been listed yet — each only once the watches know it.
func absentLine(s *screen.Screen) string {
	if s.Deployment == "" {
		return noneSelected
	}
	name := s.Namespace + "/" + s.Deployment
	a := s.Src.Absent(s.Namespace, s.Deployment)
	switch {
	case !a.DeletedAt.IsZero():
		return fmt.Sprintf("deployment %s was deleted %s ago (at %s) — press : to pick another",
			name, draw.Age(s.Now, a.DeletedAt), a.DeletedAt.Format("15:04:05"))
	case a.NoNamespace:
		return fmt.Sprintf("namespace %q does not exist — start rollscope with -n NAMESPACE, or press : to pick a deployment", s.Namespace)
	case s.Watch.Synced:
		return fmt.Sprintf("deployment %s does not exist — press : to pick another", name)
	}
	return fmt.Sprintf("deployment %s not listed yet — waiting for the cluster", name)
}
