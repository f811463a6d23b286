package cluster

// diffLines is a line diff from a to b by longest common subsequence. The
// common head and tail are peeled off first, so two revisions of a template
// that differ in an image or two cost little however long they are.
func diffLines(a, b []string) []DiffLine {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	out := make([]DiffLine, 0, len(a)+len(b)-head-tail)
	for _, s := range a[:head] {
		out = append(out, DiffLine{Op: ' ', Text: s})
	}
	out = append(out, diffMiddle(a[head:len(a)-tail], b[head:len(b)-tail])...)
	for _, s := range a[len(a)-tail:] {
		out = append(out, DiffLine{Op: ' ', Text: s})
	}
	return out
}

// maxDiffCells bounds the longest-common-subsequence table (4 bytes a
// cell): two templates of a couple of thousand differing lines each still
// diff exactly, anything larger is shown as replaced wholesale rather than
// costing the console hundreds of megabytes.
const maxDiffCells = 1 << 22

// diffMiddle diffs what is left once the common ends are gone, removals
// before additions where both are possible, as unified diffs read.
func diffMiddle(a, b []string) []DiffLine {
	n, m := len(a), len(b)
	if (n+1)*(m+1) > maxDiffCells {
		out := make([]DiffLine, 0, n+m)
		for _, s := range a {
			out = append(out, DiffLine{Op: '-', Text: s})
		}
		for _, s := range b {
			out = append(out, DiffLine{Op: '+', Text: s})
		}
		return out
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []DiffLine
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, DiffLine{Op: ' ', Text: a[i]})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, DiffLine{Op: '-', Text: a[i]})
			i++
		default:
			out = append(out, DiffLine{Op: '+', Text: b[j]})
			j++
		}
	}
	return out
}
