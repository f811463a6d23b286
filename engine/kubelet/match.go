package kubelet

import "time"

// defaultRule is how an image that matches no rule behaves: it is present on
// the node, starts in a second and is ready a second later.
var defaultRule = ImageRule{Match: "*", Start: time.Second, Ready: time.Second}

// MatchRule returns the first rule whose Match glob matches the whole image
// reference. When none matches it returns the default behaviour (1s start,
// 1s ready) and false.
func MatchRule(rules []ImageRule, image string) (ImageRule, bool) {
	for _, r := range rules {
		if globMatch(r.Match, image) {
			return r, true
		}
	}
	return defaultRule, false
}

// globMatch reports whether pattern matches all of s, where '*' stands for any
// run of characters (including '/' and ':') and every other byte is literal.
// It backtracks only to the last star, so it runs in O(len(pattern)·len(s)).
func globMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			// Let the last star swallow one more character and retry.
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// Glob reports whether pattern matches all of s as an image rule's match
// does: what a scenario's metric series keyed by image matches with too.
func Glob(pattern, s string) bool { return globMatch(pattern, s) }
