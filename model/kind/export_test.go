package kind

// UnknownError is the error Parse returns for a kind it does not know, for
// the tests of package kind_test.
type UnknownError = unknownError
