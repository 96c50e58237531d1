define demo::site (String $docroot) {
  notice($title)
}
