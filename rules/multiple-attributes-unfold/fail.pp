file { '/tmp/x':
  * => $defaults,
  * => $overrides,
# ^ error[multiple-attributes-unfold]: Unfolding of attributes from Hash can only be used once per resource body
}
