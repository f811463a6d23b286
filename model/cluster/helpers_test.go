package cluster_test

// ref returns a pointer to a copy of v.
func ref[T any](v T) *T { return &v }
