package textfold

// VariantPairs is the variant table, for the tests of package textfold_test.
var VariantPairs = variantPairs[:]
