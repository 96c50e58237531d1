class demo {
# <- warning[documentation]: class not documented
}

# A comment separated by a blank line does not document the define.

define demo::thing {
# <- warning[documentation]: defined type not documented
}
