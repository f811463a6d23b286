package cluster

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

// historyRows is the deployment's history, oldest revision first: one row
// per revision among its ReplicaSets, and a Gone row for each revision a
// ReplicaSet's revision-history annotation names but no ReplicaSet holds.
// A rollback reuses the ReplicaSet of the revision it returns to and moves
// the old number into that annotation, so a Gone revision ran the same
// template as the ReplicaSet that lists it: its images are that
// ReplicaSet's, and Now is that ReplicaSet's revision. Revisions that do
// not parse are left out, as kubectl does. The row of a revision whose
// rollout was aborted says so beside kubectl's change cause.
func historyRows(d *appsv1.Deployment, rss []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet) []RevisionRow {
	current := revisionOrZero(d)
	if newRS != nil {
		current = revisionOrZero(newRS)
	}
	byRevision := map[int64]RevisionRow{}
	for _, rs := range rss {
		r, err := model.Revision(rs)
		if err != nil {
			continue
		}
		row := RevisionRow{
			Revision:    r,
			ChangeCause: changeCause(rs),
			Images:      images(&rs.Spec.Template),
			Created:     rs.CreationTimestamp.Time,
			Replicas:    model.SpecReplicas(rs),
			Current:     r == current,
		}
		// Two ReplicaSets claiming one revision is a race the controller
		// resolves; until then the newer one speaks for it.
		if prev, ok := byRevision[r]; !ok || prev.Created.Before(row.Created) {
			byRevision[r] = row
		}
	}
	for _, rs := range rss {
		for _, r := range historyRevisions(rs) {
			if _, ok := byRevision[r]; !ok {
				byRevision[r] = RevisionRow{Revision: r, Images: images(&rs.Spec.Template), Gone: true, Now: revisionOrZero(rs)}
			}
		}
	}
	for r, a := range model.Aborts(d, rss) {
		if row, ok := byRevision[r]; ok {
			row.Aborted = a.String()
			byRevision[r] = row
		}
	}
	rows := make([]RevisionRow, 0, len(byRevision))
	for _, row := range byRevision {
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b RevisionRow) int { return cmp.Compare(a.Revision, b.Revision) })
	return rows
}

// changeCause is what `kubectl rollout history` shows for the ReplicaSet:
// its own change-cause annotation, else its template's.
func changeCause(rs *appsv1.ReplicaSet) string {
	if cause := rs.Annotations[model.ChangeCauseAnnotation]; cause != "" {
		return cause
	}
	return rs.Spec.Template.Annotations[model.ChangeCauseAnnotation]
}

// historyRevisions are the earlier revisions the ReplicaSet ran as, from its
// revision-history annotation ("1,3"); entries that do not parse are skipped.
func historyRevisions(rs *appsv1.ReplicaSet) []int64 {
	v := rs.Annotations[model.RevisionHistoryAnnotation]
	if v == "" {
		return nil
	}
	var out []int64
	for _, s := range strings.Split(v, ",") {
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			out = append(out, n)
		}
	}
	return out
}
