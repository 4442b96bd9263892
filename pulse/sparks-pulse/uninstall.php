<?php
/**
 * Removes the plugin's settings (the Spark's public token among them) when the plugin is deleted.
 *
 * @package SparksPulse
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}
delete_option( 'sparks_pulse' );
