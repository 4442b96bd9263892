<?php
/**
 * Plugin Name:       Sparks Pulse
 * Plugin URI:        https://github.com/sparks/sparks
 * Description:       Puts your Spark (an AI assistant built with Sparks) on your site as a chat widget.
 * Version:           1.0.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            Sparks
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       sparks-pulse
 * Domain Path:       /languages
 *
 * @package SparksPulse
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'SPARKS_PULSE_VERSION', '1.0.0' );
define( 'SPARKS_PULSE_FILE', __FILE__ );
define( 'SPARKS_PULSE_DIR', plugin_dir_path( __FILE__ ) );

require_once SPARKS_PULSE_DIR . 'includes/class-sparks-pulse-options.php';
require_once SPARKS_PULSE_DIR . 'includes/class-sparks-pulse-client.php';
require_once SPARKS_PULSE_DIR . 'includes/class-sparks-pulse-admin.php';
require_once SPARKS_PULSE_DIR . 'includes/class-sparks-pulse-frontend.php';

add_action(
	'init',
	static function () {
		load_plugin_textdomain( 'sparks-pulse', false, dirname( plugin_basename( SPARKS_PULSE_FILE ) ) . '/languages' );
	}
);

Sparks_Pulse_Frontend::register();
if ( is_admin() ) {
	Sparks_Pulse_Admin::register();
}
