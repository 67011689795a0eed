package catalog

// Test hooks for the external test package's fuzz targets.
var (
	SplitWordsForTest = splitWords
	IsUnspacedForTest = isUnspaced
)
