class demo {
  include demo::install
  'done'
# ^ error[idem-last]: This String has no effect. A Host Class Definition can not end with a value-producing expression without other effect
}
