package cluster

import (
	"strconv"
	"strings"
)

// GroupFleet makes the rows of the same namespace/kind/name in several
// clusters one row, so that a half-finished multi-region rollout is one
// glance: the most urgent cluster's row (rows come sorted by SortFleet, so
// the first seen), with Others counting the clusters beside it and Spread
// saying, per cluster in the same order, revision, images and state —
// "eu-west rev 2 app:2.0 failed · us-east rev 1 app:1.9 complete". A
// workload in one cluster keeps its row. The order is the rows'.
func GroupFleet(rows []FleetRow) []FleetRow {
	type key struct {
		namespace, kind, name string
	}
	at := make(map[key]int, len(rows))
	var out []FleetRow
	var spreads [][]string
	for _, r := range rows {
		k := key{r.Namespace, short(r.Kind), r.Name}
		i, seen := at[k]
		if !seen {
			at[k] = len(out)
			out = append(out, r)
			spreads = append(spreads, []string{spreadPart(r)})
			continue
		}
		out[i].Others++
		spreads[i] = append(spreads[i], spreadPart(r))
	}
	for i := range out {
		if out[i].Others > 0 {
			out[i].Spread = strings.Join(spreads[i], " · ")
		}
	}
	return out
}

// spreadPart is one cluster's part of a grouped row: "eu-west rev 2
// app:2.0 rolling".
func spreadPart(r FleetRow) string {
	images := make([]string, len(r.Images))
	for i, named := range r.Images {
		if _, image, ok := strings.Cut(named, "="); ok {
			named = image
		}
		images[i] = named
	}
	return r.Cluster + " rev " + strconv.FormatInt(r.Revision, 10) + " " + strings.Join(images, ",") + " " + r.Word
}
