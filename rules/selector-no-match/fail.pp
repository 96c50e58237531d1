$release = 'trixie'
$codename = $release ? {
#           ^ error[selector-no-match]: No matching entry for selector parameter with value 'trixie'
  'bookworm' => 12,
  'bullseye' => 11,
}
