package model

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"text/tabwriter"

	appsv1 "k8s.io/api/apps/v1"
)

// HistoryTable is `kubectl rollout history` for a deployment's ReplicaSets:
// one row per revision with its change cause, or "No rollout history found."
// ReplicaSets whose revision does not parse are left out, as kubectl does.
func HistoryTable(rss []*appsv1.ReplicaSet) string {
	sorted := nonNil(slices.Clone(rss))
	SortByCreationTimestamp(sorted)
	causes := map[int64]string{}
	for _, rs := range sorted {
		v, err := Revision(rs)
		if err != nil {
			continue
		}
		// The ReplicaSet's own change cause wins over one in its template.
		cause := rs.Annotations[ChangeCauseAnnotation]
		if cause == "" {
			cause = rs.Spec.Template.Annotations[ChangeCauseAnnotation]
		}
		causes[v] = cause
	}
	if len(causes) == 0 {
		return "No rollout history found."
	}
	var buf bytes.Buffer
	w := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	fmt.Fprintf(w, "REVISION\tCHANGE-CAUSE\n")
	for _, r := range slices.Sorted(maps.Keys(causes)) {
		cause := causes[r]
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(w, "%d\t%s\n", r, cause)
	}
	w.Flush()
	return buf.String()
}

// RolloutHistoryOutput is what `kubectl rollout history` prints for resource
// (e.g. "deployment.apps/foo"): the name line, "with revision #N" when one
// revision is shown, then the history text.
func RolloutHistoryOutput(resource string, revision int64, history string) string {
	with := ""
	if revision > 0 {
		with = fmt.Sprintf("with revision #%d", revision)
	}
	return fmt.Sprintf("%s %s\n%s\n", resource, with, history)
}
