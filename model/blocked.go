package model

import "strings"

// GroupBlocked folds the pods a PodDisruptionBudget holds back ("ns/pod:
// PodDisruptionBudget ns/name allows 0 disruptions (…)"), one line per pod,
// into one line per budget naming its pods: the budget's sentence once,
// however many pods wait on it. Lines that do not name a pod stay as they
// are, in order.
func GroupBlocked(blocked []string) []string {
	var order []string
	pods := map[string][]string{}
	for _, b := range blocked {
		pod, why, ok := strings.Cut(b, ": ")
		if !ok || strings.Contains(pod, " ") {
			order = append(order, b)
			continue
		}
		if _, seen := pods[why]; !seen {
			order = append(order, why)
		}
		pods[why] = append(pods[why], pod)
	}
	out := make([]string, 0, len(order))
	for _, why := range order {
		ps, ok := pods[why]
		if !ok {
			out = append(out, why)
			continue
		}
		out = append(out, why+": "+strings.Join(ps, ", "))
	}
	return out
}
