# Reference oracle: validates many files in one Ruby process exactly as
# `puppet parser validate` (Face#validate_manifest) and `puppet epp validate`
# (EvaluatingEppParser#parse_file) do. Reads file paths (one per line) on stdin,
# writes one JSON object per line: {"path":..., "ok":bool, "msg":...}
require 'puppet'
require 'json'
require 'puppet/face'
Puppet.initialize_settings(['--log_level=err'])
face = Puppet::Face[:parser, :current]
OUT = $stdout.dup
OUT.sync = true
$stdout = $stderr
STDIN.each_line do |line|
  path = line.chomp
  next if path.empty?
  msg = nil
  begin
    if path.end_with?('.epp')
      Puppet::Pops::Parser::EvaluatingParser::EvaluatingEppParser.new.parse_file(path)
    else
      # a fresh environment per file: with one shared environment, definitions of
      # earlier files stay in its loaders ("Attempt to redefine entity"), exactly as
      # when `puppet parser validate a.pp b.pp` is given several files
      env = Puppet::Node::Environment.create(:production, [])
      err = Puppet.override(:current_environment => env) { face.validate_manifest(path) }
      msg = err.message if err
    end
  rescue Exception => e
    msg = "#{e.class}: #{e.message}"
  end
  OUT.puts JSON.generate({'path' => path, 'ok' => msg.nil?, 'msg' => msg})
end
